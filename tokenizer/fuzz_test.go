package tokenizer

import (
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// fuzzSeeds are texts that reach the corners of both tokenizers.
var fuzzSeeds = []string{
	"", "Hello world!", "<think>x</think><answer>42</answer>", "<|im_end|><|im_end|>", "<thin", "<<think>>",
	"a  b\n\n c\t\t\n d   ", "I'm DON'T it'ſ", "cafe\u0301 \u212B e\u0301\u0302", "\xff\xfe\x00", "\xc3",
	"12345 ٣٤٥ ½", "日本語 👨‍👩‍👧", strings.Repeat(" ", 300), strings.Repeat("ab", 200),
}

// FuzzBytesRoundTrip: any byte string round-trips and the offsets tile it.
func FuzzBytesRoundTrip(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	b, err := NewBytes()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s := string(data)
		ids, offs := b.Encode(s)
		checkTiling(t, s, ids, offs)
		checkOffsetsMatchTokens(t, b, s, ids, offs)
		if got := b.Decode(ids); got != s {
			t.Fatalf("Decode(Encode(%q)) = %q", s, got)
		}
	})
}

// FuzzBPE runs the tiny BPE tokenizer of testdata on any text: no panic,
// offsets tile the text, every id is a token, and decoding gives the
// NFC-normalized text back (the text itself when it is already NFC, and
// then each range holds its token's bytes).
func FuzzBPE(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	tok := loadTiny(f)
	f.Fuzz(func(t *testing.T, s string) {
		ids, offs := tok.Encode(s)
		checkTiling(t, s, ids, offs)
		for _, id := range ids {
			if tok.TokenBytes(id) == nil {
				t.Fatalf("Encode(%q) produced unknown id %d", s, id)
			}
		}
		got := tok.Decode(ids)
		if !utf8.ValidString(s) {
			if norm.NFC.IsNormalString(s) && got != s {
				t.Fatalf("Decode(Encode(%q)) = %q", s, got)
			}
			return
		}
		if want := norm.NFC.String(s); got != want {
			t.Fatalf("Decode(Encode(%q)) = %q, want NFC %q", s, got, want)
		}
		if got == s {
			checkOffsetsMatchTokens(t, tok, s, ids, offs)
		}
	})
}

// FuzzPretokenize: the hand-written splitters agree with the patterns run
// by regexp2 (except on 'ſ, which Oniguruma's case folding matches and
// regexp2's does not).
func FuzzPretokenize(f *testing.F) {
	for _, s := range append(fuzzSeeds, splitCorpus...) {
		f.Add(s)
	}
	type pair struct{ fast, slow splitter }
	var pairs []pair
	for _, p := range []string{patternQwen2, patternLlama3, patternGPT2} {
		fast, _ := splitterFor(p)
		slow, err := newRegexSplitter(p)
		if err != nil {
			f.Fatal(err)
		}
		pairs = append(pairs, pair{fast, slow})
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.Contains(s, "ſ") {
			return
		}
		for _, p := range pairs {
			compareSplit(t, p.fast, p.slow, s)
		}
	})
}

// FuzzParseBPE: any tokenizer.json content gives a tokenizer or an error,
// never a panic; a tokenizer it gives encodes with tiling offsets.
func FuzzParseBPE(f *testing.F) {
	data, err := os.ReadFile("testdata/tiny/tokenizer.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte(`{"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}}`))
	f.Add([]byte(`{"model": {"type": "WordPiece"}}`))
	f.Add([]byte(`{"added_tokens": [{"id": 3, "content": "<x>", "lstrip": true}], "pre_tokenizer": {"type": "ByteLevel"}, "model": {"type": "BPE", "vocab": {}, "merges": ["a b"]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tok, err := ParseBPE(data, nil)
		if err != nil {
			return
		}
		for _, s := range []string{"Hello world! <think>", "a  b\n", "\xff"} {
			ids, offs := tok.Encode(s)
			checkTiling(t, s, ids, offs)
		}
	})
}
