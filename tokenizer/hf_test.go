package tokenizer

import (
	"encoding/json"
	"os"
	"slices"
	"sync"
	"testing"

	"golang.org/x/text/unicode/norm"
)

// checkEncoding checks Encode against the reference ids, and the invariants
// every encoding has: offsets tile the text, decoding gives the normalized
// text back, and without normalization each range holds its token's bytes.
func checkEncoding(t *testing.T, tok *BPE, c refCase) {
	t.Helper()
	ids, offs := tok.Encode(c.Text)
	if !slices.Equal(ids, c.IDs) && !(len(ids) == 0 && len(c.IDs) == 0) {
		t.Errorf("Encode(%q) = %v, reference %v", c.Text, ids, c.IDs)
	}
	checkTiling(t, c.Text, ids, offs)
	if got, want := tok.Decode(ids), norm.NFC.String(c.Text); got != want {
		t.Errorf("Decode(Encode(%q)) = %q, want %q", c.Text, got, want)
	}
	if norm.NFC.IsNormalString(c.Text) {
		checkOffsetsMatchTokens(t, tok, c.Text, ids, offs)
	}
}

func TestTinyMatchesReference(t *testing.T) {
	tok := loadTiny(t)
	ref := loadReference(t)
	if len(ref.Tiny) < 20 {
		t.Fatalf("reference has only %d tiny cases", len(ref.Tiny))
	}
	for _, c := range ref.Tiny {
		checkEncoding(t, tok, c)
	}
}

func TestQwen3MatchesReference(t *testing.T) {
	tok := loadQwen3(t)
	for _, c := range loadReference(t).Qwen3 {
		checkEncoding(t, tok, c)
	}
}

func TestQwen3Known(t *testing.T) {
	tok := loadQwen3(t)
	if ids, _ := tok.Encode("Hello world!"); !slices.Equal(ids, []int32{9707, 1879, 0}) {
		t.Errorf(`Encode("Hello world!") = %v, want [9707 1879 0]`, ids)
	}
	// Ids of the added tokens, as listed in the file's added_tokens.
	specials := map[string]int32{
		"<|endoftext|>": 151643, "<|im_start|>": 151644, "<|im_end|>": 151645,
		"<tool_call>": 151657, "</tool_call>": 151658, "<think>": 151667, "</think>": 151668,
	}
	for name, want := range specials {
		if id, ok := tok.Special(name); !ok || id != want {
			t.Errorf("Special(%q) = %d, %v; want %d", name, id, ok, want)
		}
		if ids, offs := tok.Encode(name); !slices.Equal(ids, []int32{want}) || offs[0] != [2]int{0, len(name)} {
			t.Errorf("Encode(%q) = %v %v, want [%d] [[0 %d]]", name, ids, offs, want, len(name))
		}
		if got := string(tok.TokenBytes(want)); got != name {
			t.Errorf("TokenBytes(%d) = %q, want %q", want, got, name)
		}
	}
	if tok.EOS() != 151645 || tok.PAD() != 151643 {
		t.Errorf("EOS, PAD = %d, %d; want <|im_end|> 151645, <|endoftext|> 151643", tok.EOS(), tok.PAD())
	}
	if _, ok := tok.BOS(); ok {
		t.Error("Qwen3 has no BOS token, BOS() says it has")
	}
	if got := tok.VocabSize(); got != 151669 {
		t.Errorf("VocabSize = %d, want 151669 (151643 vocabulary + 26 added)", got)
	}
	// The reference holds the ChatML rendering of the prompt "hi".
	var want []int32
	for _, c := range loadReference(t).Qwen3 {
		if c.Text == "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n" {
			want = c.IDs
		}
	}
	if got := tok.EncodePrompt("hi"); want == nil || !slices.Equal(got, want) {
		t.Errorf("EncodePrompt(hi) = %v, want %v", got, want)
	}
}

// Every GSM8K question and IFEval prompt round-trips, with tiling offsets
// that hold each token's bytes, and the ids equal the reference's (by digest).
func TestQwen3Datasets(t *testing.T) {
	tok := loadQwen3(t)
	ref := loadReference(t)
	for _, ds := range []struct {
		file, field string
		want        refDigest
	}{
		{"gsm8k/test.jsonl", "question", ref.Qwen3GSM8K},
		{"ifeval/input_data.jsonl", "prompt", ref.Qwen3IFEval},
	} {
		texts := readField(t, qwen3Dir(t)+"/../../"+ds.file, ds.field)
		if len(texts) != ds.want.Records {
			t.Fatalf("%s: %d records, reference has %d", ds.file, len(texts), ds.want.Records)
		}
		var all [][]int32
		for _, text := range texts {
			ids, offs := tok.Encode(text)
			checkTiling(t, text, ids, offs)
			checkOffsetsMatchTokens(t, tok, text, ids, offs)
			if got := tok.Decode(ids); got != text {
				t.Fatalf("%s: round trip of %q gave %q", ds.file, text, got)
			}
			all = append(all, ids)
		}
		if got := idsDigest(all); got != ds.want.SHA256 {
			t.Errorf("%s: digest of the ids = %s, reference %s", ds.file, got, ds.want.SHA256)
		}
	}
}

// tinyJSON returns testdata/tiny/tokenizer.json decoded, for tests to edit.
func tinyJSON(t testing.TB) map[string]any {
	t.Helper()
	data, err := os.ReadFile("testdata/tiny/tokenizer.json")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func marshal(t testing.TB, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func model(m map[string]any) map[string]any { return m["model"].(map[string]any) }

func addedToken(m map[string]any, content string) map[string]any {
	for _, a := range m["added_tokens"].([]any) {
		if a := a.(map[string]any); a["content"] == content {
			return a
		}
	}
	panic("no added token " + content)
}

func TestMergesStringFormat(t *testing.T) {
	m := tinyJSON(t)
	var lines []any
	for _, p := range model(m)["merges"].([]any) {
		p := p.([]any)
		lines = append(lines, p[0].(string)+" "+p[1].(string))
	}
	model(m)["merges"] = lines
	tok, err := ParseBPE(marshal(t, m), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range loadReference(t).Tiny {
		checkEncoding(t, tok, c)
	}
}

func TestNormalizationOffsets(t *testing.T) {
	tok := loadTiny(t)
	tests := []struct {
		text string
		ids  []int32 // nil: not checked
		offs [][2]int
	}{
		// U+212B ANGSTROM SIGN (3 bytes) becomes U+00C5 (2 bytes), which the
		// tiny vocabulary only has as two byte tokens: the first covers the
		// whole original character, the second gets an empty range.
		{"\u212B", []int32{tok.byteID[0xC3], tok.byteID[0x85]}, [][2]int{{0, 3}, {3, 3}}},
		{"x\u212B", nil, [][2]int{{0, 1}, {1, 4}, {4, 4}}},
		// e + combining acute (3 bytes) becomes é (2 bytes), one token.
		{"e\u0301", []int32{tok.addedOrVocab(t, "é")}, [][2]int{{0, 3}}},
	}
	for _, tc := range tests {
		ids, offs := tok.Encode(tc.text)
		if tc.ids != nil && !slices.Equal(ids, tc.ids) {
			t.Errorf("Encode(%q) ids = %v, want %v", tc.text, ids, tc.ids)
		}
		if !slices.Equal(offs, tc.offs) {
			t.Errorf("Encode(%q) offsets = %v, want %v", tc.text, offs, tc.offs)
		}
		checkTiling(t, tc.text, ids, offs)
	}
	// Offsets after a normalized stretch point into the original text.
	text := "cafe\u0301 <think>ok</think>"
	ids, offs := tok.Encode(text)
	checkTiling(t, text, ids, offs)
	think, _ := tok.Special("<think>")
	i := slices.Index(ids, think)
	if i < 0 || text[offs[i][0]:offs[i][1]] != "<think>" {
		t.Errorf("Encode(%q): <think> at %d, offsets %v", text, i, offs)
	}
}

// addedOrVocab returns the id of the token whose bytes are s.
func (t *BPE) addedOrVocab(tb testing.TB, s string) int32 {
	for id := range t.VocabSize() {
		if string(t.TokenBytes(int32(id))) == s {
			return int32(id)
		}
	}
	tb.Fatalf("no token %q", s)
	return -1
}

func TestAddedTokenOptions(t *testing.T) {
	m := tinyJSON(t)
	addedToken(m, "<think>")["lstrip"] = true
	addedToken(m, "</think>")["rstrip"] = true
	addedToken(m, "<answer>")["single_word"] = true
	tok, err := ParseBPE(marshal(t, m), nil)
	if err != nil {
		t.Fatal(err)
	}
	id := func(n string) int32 { v, _ := tok.Special(n); return v }
	tests := []struct {
		text    string
		special string
		rng     [2]int // the special token's range
	}{
		{"a  <think>b", "<think>", [2]int{1, 10}},
		{"a</think> \n b", "</think>", [2]int{1, 12}},
		{"x <answer> y", "<answer>", [2]int{2, 10}},
	}
	for _, tc := range tests {
		ids, offs := tok.Encode(tc.text)
		checkTiling(t, tc.text, ids, offs)
		i := slices.Index(ids, id(tc.special))
		if i < 0 || offs[i] != tc.rng {
			t.Errorf("Encode(%q) = %v %v: want %s over %v", tc.text, ids, offs, tc.special, tc.rng)
		}
	}
	// single_word: not matched inside a word.
	ids, _ := tok.Encode("x<answer>y")
	if slices.Contains(ids, id("<answer>")) {
		t.Errorf("single_word <answer> matched inside a word: %v", ids)
	}
}

func TestRoles(t *testing.T) {
	tiny := loadTiny(t)
	sp := func(tok *BPE, n string) int32 { v, _ := tok.Special(n); return v }
	if tiny.EOS() != sp(tiny, "<|im_end|>") || tiny.PAD() != sp(tiny, "<|endoftext|>") {
		t.Errorf("tiny: EOS %d PAD %d", tiny.EOS(), tiny.PAD())
	}
	want, _ := tiny.Encode("<|im_start|>user\nWhat is 2+2?<|im_end|>\n<|im_start|>assistant\n")
	if got := tiny.EncodePrompt("What is 2+2?"); !slices.Equal(got, want) {
		t.Errorf("EncodePrompt = %v, want %v", got, want)
	}

	// Without ChatML tokens: the configured roles, a BOS before the prompt.
	m := tinyJSON(t)
	addedToken(m, "<|im_start|>")["content"] = "<s>"
	m["padding"] = map[string]any{"pad_token": "<answer>"}
	cfg := []byte(`{"bos_token": {"content": "<s>"}, "eos_token": "</answer>", "pad_token": null}`)
	tok, err := ParseBPE(marshal(t, m), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if bos, ok := tok.BOS(); !ok || bos != sp(tok, "<s>") {
		t.Errorf("BOS = %d %v, want <s>", bos, ok)
	}
	if tok.EOS() != sp(tok, "</answer>") || tok.PAD() != sp(tok, "<answer>") {
		t.Errorf("EOS %d PAD %d, want </answer> and <answer>", tok.EOS(), tok.PAD())
	}
	body, _ := tok.Encode("hi")
	if got := tok.EncodePrompt("hi"); !slices.Equal(got, append([]int32{sp(tok, "<s>")}, body...)) {
		t.Errorf("plain EncodePrompt = %v, want BOS + %v", got, body)
	}

	// Llama-3's header template.
	m = tinyJSON(t)
	addedToken(m, "<|im_start|>")["content"] = "<|start_header_id|>"
	addedToken(m, "<|im_end|>")["content"] = "<|end_header_id|>"
	addedToken(m, "<think>")["content"] = "<|eot_id|>"
	addedToken(m, "</think>")["content"] = "<|begin_of_text|>"
	tok, err = ParseBPE(marshal(t, m), nil)
	if err != nil {
		t.Fatal(err)
	}
	if tok.EOS() != sp(tok, "<|eot_id|>") {
		t.Errorf("Llama-3 EOS = %d, want <|eot_id|>", tok.EOS())
	}
	wantText := "<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nhi<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n"
	if got := tok.RenderPrompt("hi"); got != wantText {
		t.Errorf("Llama-3 RenderPrompt = %q", got)
	}
	if got, want := tok.EncodePrompt("hi"), first(tok.Encode(wantText)); !slices.Equal(got, want) {
		t.Errorf("Llama-3 EncodePrompt = %v, want %v", got, want)
	}
}

func first[A, B any](a A, _ B) A { return a }

func TestIgnoreMerges(t *testing.T) {
	// With ignore_merges, a word that is in the vocabulary is taken whole
	// even where the merges would split it: add "Nat" with a pair of merges
	// that never builds it.
	m := tinyJSON(t)
	vocab := model(m)["vocab"].(map[string]any)
	vocab["zq"] = float64(len(vocab) + 100) // above every other id
	tok, err := ParseBPE(marshal(t, m), nil)
	if err != nil {
		t.Fatal(err)
	}
	if ids, _ := tok.Encode("zq"); len(ids) != 2 {
		t.Fatalf("without ignore_merges, zq (no merge) = %v, want two byte tokens", ids)
	}
	model(m)["ignore_merges"] = true
	tok, err = ParseBPE(marshal(t, m), nil)
	if err != nil {
		t.Fatal(err)
	}
	if ids, _ := tok.Encode("zq"); !slices.Equal(ids, []int32{int32(len(vocab) + 99)}) {
		t.Errorf("with ignore_merges, Encode(zq) = %v, want [%d]", ids, len(vocab)+99)
	}
}

func TestConcurrentEncode(t *testing.T) {
	tok := loadTiny(t)
	ref := loadReference(t).Tiny
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 8 {
		wg.Go(func() {
			for k := range 50 {
				c := ref[(g+k)%len(ref)]
				if ids, _ := tok.Encode(c.Text); !slices.Equal(ids, c.IDs) && len(c.IDs) > 0 {
					errs <- c.Text
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for text := range errs {
		t.Errorf("concurrent Encode(%q) differs from the reference", text)
	}
}

func TestDecodeWithOffsets(t *testing.T) {
	tok := loadTiny(t)
	text := "Natalia sold <think>48</think> clips"
	ids, offs := tok.Encode(text)
	got, gotOffs := DecodeWithOffsets(tok, ids)
	if got != text || !slices.Equal(gotOffs, offs) {
		t.Errorf("DecodeWithOffsets = %q %v, want %q %v", got, gotOffs, text, offs)
	}
	got, gotOffs = DecodeWithOffsets(tok, []int32{-1, ids[0]})
	if gotOffs[0] != [2]int{0, 0} || got != text[offs[0][0]:offs[0][1]] {
		t.Errorf("unknown id: %q %v", got, gotOffs)
	}
}
