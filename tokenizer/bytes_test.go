package tokenizer

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func mustBytes(t testing.TB, extra ...string) *Bytes {
	t.Helper()
	b, err := NewBytes(extra...)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestBytesEncode(t *testing.T) {
	b := mustBytes(t, "<think_long>", "<a>", "<ab>")
	id := func(name string) int32 {
		v, ok := b.Special(name)
		if !ok {
			t.Fatalf("no special %q", name)
		}
		return v
	}
	tests := []struct {
		name string
		text string
		ids  []int32
		offs [][2]int
	}{
		{"empty", "", nil, nil},
		{"ascii", "Hi!", []int32{'H', 'i', '!'}, [][2]int{{0, 1}, {1, 2}, {2, 3}}},
		{"utf8 bytes", "é", []int32{0xC3, 0xA9}, [][2]int{{0, 1}, {1, 2}}},
		{"invalid utf8", "\xff\x00", []int32{0xFF, 0}, [][2]int{{0, 1}, {1, 2}}},
		{"special", "<think>x</think>", []int32{id("<think>"), 'x', id("</think>")}, [][2]int{{0, 7}, {7, 8}, {8, 16}}},
		{"longest first", "<think_long>", []int32{id("<think_long>")}, [][2]int{{0, 12}}},
		{"prefix of a longer name", "<ab><a>", []int32{id("<ab>"), id("<a>")}, [][2]int{{0, 4}, {4, 7}}},
		{"partial name is bytes", "<thin", []int32{'<', 't', 'h', 'i', 'n'}, [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}}},
		{"adjacent specials", "<|eos|><|eos|>", []int32{id(EOSName), id(EOSName)}, [][2]int{{0, 7}, {7, 14}}},
		{"nested brackets", "<<a>>", []int32{'<', id("<a>"), '>'}, [][2]int{{0, 1}, {1, 4}, {4, 5}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ids, offs := b.Encode(tc.text)
			if !slices.Equal(ids, tc.ids) {
				t.Errorf("ids = %v, want %v", ids, tc.ids)
			}
			if !slices.Equal(offs, tc.offs) {
				t.Errorf("offsets = %v, want %v", offs, tc.offs)
			}
			checkTiling(t, tc.text, ids, offs)
			checkOffsetsMatchTokens(t, b, tc.text, ids, offs)
			if got := b.Decode(ids); got != tc.text {
				t.Errorf("Decode = %q, want %q", got, tc.text)
			}
		})
	}
}

func TestBytesDefaults(t *testing.T) {
	b := mustBytes(t)
	names := DefaultSpecials()
	if got, want := b.VocabSize(), 256+len(names); got != want {
		t.Fatalf("VocabSize = %d, want %d", got, want)
	}
	for i, n := range names {
		id, ok := b.Special(n)
		if !ok || id != int32(256+i) {
			t.Errorf("Special(%q) = %d, %v; want %d", n, id, ok, 256+i)
		}
		if got := string(b.TokenBytes(id)); got != n {
			t.Errorf("TokenBytes(%d) = %q, want %q", id, got, n)
		}
	}
	if _, ok := b.Special("<nope>"); ok {
		t.Error("Special found an unknown name")
	}
	if b.EOS() != 257 || b.PAD() != 258 {
		t.Errorf("EOS, PAD = %d, %d; want 257, 258", b.EOS(), b.PAD())
	}
	for _, id := range []int32{-1, int32(b.VocabSize()), 1 << 30} {
		if got := b.TokenBytes(id); got != nil {
			t.Errorf("TokenBytes(%d) = %q, want nil", id, got)
		}
	}
	if got := b.Decode([]int32{'a', -5, 99999, 'b'}); got != "ab" {
		t.Errorf("Decode with unknown ids = %q, want %q", got, "ab")
	}
	// TokenBytes returns a copy.
	tb := b.TokenBytes(256)
	tb[0] = 'X'
	if got := string(b.TokenBytes(256)); got != BOSName {
		t.Errorf("TokenBytes shares memory: now %q", got)
	}
}

func TestBytesEncodePrompt(t *testing.T) {
	b := mustBytes(t)
	bos, _ := b.Special(BOSName)
	user, _ := b.Special(UserName)
	asst, _ := b.Special(AssistantName)
	think, _ := b.Special("<think>")
	tests := []struct {
		prompt string
		want   []int32
	}{
		{"", []int32{bos, user, asst}},
		{"2+2?", []int32{bos, user, '2', '+', '2', '?', asst}},
		{"use <think>", []int32{bos, user, 'u', 's', 'e', ' ', think, asst}},
	}
	for _, tc := range tests {
		if got := b.EncodePrompt(tc.prompt); !slices.Equal(got, tc.want) {
			t.Errorf("EncodePrompt(%q) = %v, want %v", tc.prompt, got, tc.want)
		}
	}
}

func TestNewBytesErrors(t *testing.T) {
	tests := []struct {
		extra []string
		want  string
	}{
		{[]string{""}, "empty name"},
		{[]string{"<x>", "<x>"}, `"<x>" appears twice`},
		{[]string{"<think>"}, `"<think>" appears twice`},
	}
	for _, tc := range tests {
		_, err := NewBytes(tc.extra...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NewBytes(%q) error = %v, want it to contain %q", tc.extra, err, tc.want)
		}
	}
	if _, err := newBytes([]string{"<only>"}); err == nil || !strings.Contains(err.Error(), `"<|bos|>" is missing`) {
		t.Errorf("newBytes without roles: error = %v", err)
	}
}

func TestBytesSaveLoad(t *testing.T) {
	b := mustBytes(t, "<extra>")
	dir := filepath.Join(t.TempDir(), "ckpt", "step-1")
	if err := b.Save(dir); err != nil {
		t.Fatal(err)
	}
	got, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	lb, ok := got.(*Bytes)
	if !ok {
		t.Fatalf("Load returned %T, want *Bytes", got)
	}
	if !slices.Equal(lb.Specials(), b.Specials()) {
		t.Errorf("specials after Load = %q, want %q", lb.Specials(), b.Specials())
	}
	text := "a<extra>b<|eos|>"
	ids1, _ := b.Encode(text)
	ids2, _ := lb.Encode(text)
	if !slices.Equal(ids1, ids2) {
		t.Errorf("loaded tokenizer encodes %v, original %v", ids2, ids1)
	}
	// Saving again over the folder works and leaves no temporary files.
	if err := lb.Save(dir); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != DescriptorFile {
		t.Errorf("folder holds %v, want only %s", entries, DescriptorFile)
	}
}
