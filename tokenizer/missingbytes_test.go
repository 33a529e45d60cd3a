package tokenizer

import (
	"slices"
	"strings"
	"testing"
)

// tinyWithout is the tiny tokenizer without the single-byte tokens of
// the given byte-level characters (and the merges that use them).
func tinyWithout(t *testing.T, chars ...string) *BPE {
	t.Helper()
	m := tinyJSON(t)
	vocab := model(m)["vocab"].(map[string]any)
	for _, c := range chars {
		delete(vocab, c)
	}
	var merges []any
	for _, mg := range model(m)["merges"].([]any) {
		s := strings.Join(toStrings(mg), " ")
		if !strings.ContainsAny(s, strings.Join(chars, "")) {
			merges = append(merges, mg)
		}
	}
	model(m)["merges"] = merges
	tok, err := ParseBPE(marshal(t, m), nil)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func toStrings(mg any) []string {
	if s, ok := mg.(string); ok {
		return []string{s}
	}
	var out []string
	for _, p := range mg.([]any) {
		out = append(out, p.(string))
	}
	return out
}

// TestMissingBytes: bytes without a token (SmolLM2 has 21) are dropped,
// as Hugging Face's BPE and llama.cpp drop them, and their bytes join a
// neighbouring token's range so the offsets still tile the text.
func TestMissingBytes(t *testing.T) {
	full := loadTiny(t)
	tok := tinyWithout(t, "Ą", "ÿ") // the characters of bytes 0x04 and 0xFF
	cat := func(texts ...string) []int32 {
		var out []int32
		for _, s := range texts {
			ids, _ := full.Encode(s)
			out = append(out, ids...)
		}
		return out
	}
	for _, tc := range []struct {
		text string
		want []int32
	}{
		{"hello\x04 world", cat("hello", " world")}, // a pre-token of the byte alone
		{"x\xffy", cat("x", "y")},                   // a leading byte of a pre-token
		{"\x04\x04 ok", cat(" ok")},                 // nothing before it
		{"ab\xff\xffcd<|im_end|>", cat("ab", "cd", "<|im_end|>")},
		{"plain text", cat("plain text")},
	} {
		ids, offs := tok.Encode(tc.text)
		if !slices.Equal(ids, tc.want) {
			t.Errorf("%q: ids %v, want %v", tc.text, ids, tc.want)
		}
		if strings.HasPrefix(tc.text, "\x04\x04") {
			// Bytes before any token belong to the first token of the
			// next pre-token only when they lead it; a pre-token of them
			// alone at the start belongs to no token.
			continue
		}
		checkTiling(t, tc.text, ids, offs)
	}
	m := tinyJSON(t)
	delete(model(m)["vocab"].(map[string]any), "!")
	if _, err := ParseBPE(marshal(t, m), nil); err == nil || !strings.Contains(err.Error(), "no token for byte 0x21") {
		t.Errorf("a vocabulary without '!': %v", err)
	}
}
