package tokenizer

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// pieces returns the pre-tokens of text.
func pieces(s splitter, text string) []string {
	var out []string
	s.split(text, func(a, b int) { out = append(out, text[a:b]) })
	return out
}

func TestQwen2Split(t *testing.T) {
	sp, err := splitterFor(patternQwen2)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := sp.(cl100kSplitter); !ok {
		t.Fatalf("the Qwen2 pattern got %T, want the hand-written splitter", sp)
	}
	tests := []struct {
		text string
		want []string
	}{
		{"", nil},
		{"Hello world!", []string{"Hello", " world", "!"}},
		{"I'm DON'T it'S", []string{"I", "'m", " DON", "'T", " it", "'S"}},
		{"'sorry'", []string{"'s", "orry", "'"}},
		{"it'ſ", []string{"it", "'ſ"}}, // Unicode simple case folding: ſ ~ s
		{"12345", []string{"1", "2", "3", "4", "5"}},
		{"x1y", []string{"x", "1", "y"}},
		{"a  b", []string{"a", " ", " b"}},
		{"a\n\n b", []string{"a", "\n\n", " b"}},
		{"end   ", []string{"end", "   "}},
		{"x \t\n  y", []string{"x", " \t\n", " ", " y"}},
		{" !!?\n\nx", []string{" !!?\n\n", "x"}},
		{"\t!x", []string{"\t", "!x"}},
		{"(a)", []string{"(a", ")"}},
		{"$12.50", []string{"$", "1", "2", ".", "5", "0"}},
		{"café", []string{"café"}},
		{"日本語 テキスト", []string{"日本語", " テキスト"}},
		{"a\u00a0b", []string{"a", "\u00a0b"}},
		{"\xff\xfeab", []string{"\xff\xfe", "ab"}}, // invalid bytes count as symbols
		{"\xffa", []string{"\xffa"}},
		{"x\r\n", []string{"x", "\r\n"}},
	}
	for _, tc := range tests {
		if got := pieces(sp, tc.text); !slices.Equal(got, tc.want) {
			t.Errorf("split(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

func TestLlama3AndGPT2Split(t *testing.T) {
	tests := []struct {
		pattern, text string
		want          []string
	}{
		{patternLlama3, "1234567 x", []string{"123", "456", "7", " x"}},
		{patternLlama3, "I'LL", []string{"I", "'LL"}},
		{patternGPT2, "I'LL", []string{"I", "'", "LL"}}, // case-sensitive
		{patternGPT2, "Hello  world 123!!\n\n", []string{"Hello", " ", " world", " 123", "!!", "\n\n"}},
		{patternGPT2, "a\tb", []string{"a", "\t", "b"}},
		{patternGPT2, "it's", []string{"it", "'s"}},
	}
	for _, tc := range tests {
		sp, err := splitterFor(tc.pattern)
		if err != nil {
			t.Fatal(err)
		}
		if got := pieces(sp, tc.text); !slices.Equal(got, tc.want) {
			t.Errorf("%T split(%q) = %q, want %q", sp, tc.text, got, tc.want)
		}
	}
}

// splitCorpus holds texts that exercise every alternative of the patterns.
var splitCorpus = []string{
	"Hello world! I'm here, you're there; WE'LL see it's 'sorry' O'Neil's I'D've",
	"12345 3.14 1,000,000 ٣٤٥ ½ Ⅻ x2y 2024-11-30",
	"   lead  mid   trail   ",
	"a\n\nb\r\n\r\nc \n d\t\t\ne   \n",
	"!!!???... ---> ...\n\n$%^&*()[]{}",
	"café naïve 日本語 Привет, мир! مرحبا हिन्दी ภาษาไทย 👍🏽 👨‍👩‍👧",
	"a\u00a0b a\u3000b x\u2028y z\u0085w \u200bzero",
	"def f(x):\n    return x**2  # square\n",
	"\xff\xfe bad \xc3 utf8 \xe2\x82",
	" ' '' 's 'S 're 'Re 'rE '",
}

// randomText draws n characters from a mix of classes (letters, digits,
// several kinds of white space and punctuation, apostrophes, non-ASCII).
func randomText(r *rand.Rand, n int) string {
	parts := []string{"a", "Z", "é", "日", "ß", "1", "٣", "½", " ", "  ", "\t", "\n", "\r", "\u00a0", "\u3000",
		"'", "'s", "'T", "'re", "'LL", "!", ".", "(", "$", "😀", "\u0301", "\xff", "-", "_"}
	var sb strings.Builder
	for range n {
		sb.WriteString(parts[r.IntN(len(parts))])
	}
	return sb.String()
}

// The hand-written splitters must split exactly as the patterns do when run
// by a regex engine with look-ahead (regexp2).
func TestHandWrittenSplitMatchesRegex(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	texts := slices.Clone(splitCorpus)
	for range 2000 {
		texts = append(texts, randomText(r, r.IntN(24)))
	}
	for _, pattern := range []string{patternQwen2, patternLlama3, patternGPT2} {
		fast, _ := splitterFor(pattern)
		slow, err := newRegexSplitter(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range texts {
			if !strings.Contains(text, "ſ") {
				compareSplit(t, fast, slow, text)
			}
		}
	}
}

func compareSplit(t testing.TB, fast, slow splitter, text string) {
	t.Helper()
	got, want := pieces(fast, text), pieces(slow, text)
	if !slices.Equal(got, want) {
		t.Fatalf("%T split(%q) = %q, regexp2 gives %q", fast, text, got, want)
	}
	if strings.Join(got, "") != text {
		t.Fatalf("pieces of %q do not tile it: %q", text, got)
	}
}

func TestRegexSplitter(t *testing.T) {
	tests := []struct {
		pattern, text string
		want          []string
	}{
		{`\d+`, "ab12cd345", []string{"ab", "12", "cd", "345"}}, // gaps become pieces
		{`x*`, "abc", []string{"abc"}},                          // empty matches are skipped
		{`\s+(?!\S)|\s+`, "a  b", []string{"a", " ", " ", "b"}},
		{`é`, "aéb\xffé", []string{"a", "é", "b\xff", "é"}}, // rune positions map back to bytes
	}
	for _, tc := range tests {
		sp, err := splitterFor(tc.pattern)
		if err != nil {
			t.Fatal(err)
		}
		if got := pieces(sp, tc.text); !slices.Equal(got, tc.want) {
			t.Errorf("split(%q, %q) = %q, want %q", tc.pattern, tc.text, got, tc.want)
		}
	}
	seq := seqSplitter{mustSplitter(t, `,`), mustSplitter(t, `\d`)}
	if got, want := pieces(seq, "a1,b22"), []string{"a", "1", ",", "b", "2", "2"}; !slices.Equal(got, want) {
		t.Errorf("sequence split = %q, want %q", got, want)
	}
}

func mustSplitter(t testing.TB, pattern string) splitter {
	t.Helper()
	s, err := splitterFor(pattern)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
