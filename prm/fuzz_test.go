package prm

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/credo-rl/credo/credit"
)

// fuzzOffsets turns bytes into policy token ranges over n bytes: tiling
// tokens of 0 to 4 bytes when raw is false, arbitrary (often invalid)
// ranges when it is true.
func fuzzOffsets(spec []byte, n int, raw bool) [][2]int {
	var out [][2]int
	if raw {
		for i := 0; i+1 < len(spec); i += 2 {
			out = append(out, [2]int{int(spec[i]) - 8, int(spec[i+1]) - 8})
		}
		return out
	}
	b := 0
	for _, c := range spec {
		if b >= n {
			break
		}
		e := min(b+int(c%5), n)
		out = append(out, [2]int{b, e})
		b = e
	}
	if b < n {
		out = append(out, [2]int{b, n})
	}
	return out
}

// FuzzInfluence: any response and policy offsets give an error or an
// influence whose shape fits the credit package, never a panic.
func FuzzInfluence(f *testing.F) {
	f.Add("Compute 2 + 3.", "2 + 3 = 5\nanswer: 5", []byte{1, 2, 3}, false)
	f.Add("x", "", []byte{}, false)
	f.Add("x", "a\n\nb\n", []byte{0, 0, 9, 1}, true)
	f.Add("Compute 7 * 8.", "7 * 8 = 56<|eos|>\n56 - 1 = 55\n", []byte{4, 4, 0, 1}, false)
	f.Add("", "\xff\xfe = \n", []byte{8, 9, 9, 12}, true)
	p, _ := linearPRM(mustBytes(), 1)
	p.Context = 400
	f.Fuzz(func(t *testing.T, prompt, response string, spec []byte, raw bool) {
		offs := fuzzOffsets(spec, len(response), raw)
		out, err := p.Influence(context.Background(), []credit.InfluenceRequest{{Prompt: prompt, Response: response, Offsets: offs}}, credit.NullPad)
		if err != nil {
			if !strings.Contains(err.Error(), "response 0") {
				t.Fatalf("error without the response index: %v", err)
			}
			return
		}
		in := out[0]
		if len(in.Token) != len(offs) {
			t.Fatalf("%d influences for %d tokens", len(in.Token), len(offs))
		}
		for _, v := range in.Token {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("influence %v", in.Token)
			}
		}
		prev := 0
		for _, s := range in.Steps {
			if s.Start < prev || s.End < s.Start || s.End > len(offs) {
				t.Fatalf("steps %+v over %d tokens", in.Steps, len(offs))
			}
			prev = s.End
		}
	})
}

// FuzzSeparatorSplitter: steps are in order, non-empty, trimmed, within
// the text and free of the separator.
func FuzzSeparatorSplitter(f *testing.F) {
	f.Add("\n\n", "a\n\nb")
	f.Add("\n", " x \n\ny")
	f.Add("", "abc")
	f.Add("aa", "aaa")
	f.Fuzz(func(t *testing.T, sep, text string) {
		prev := 0
		for _, r := range SeparatorSplitter(sep)("", text) {
			if r[0] < prev || r[1] <= r[0] || r[1] > len(text) {
				t.Fatalf("range %v after %d in %d bytes", r, prev, len(text))
			}
			s := text[r[0]:r[1]]
			if isSpace(s[0]) || isSpace(s[len(s)-1]) {
				t.Fatalf("step %q is not trimmed", s)
			}
			if sep != "" && strings.Contains(s, sep) {
				t.Fatalf("step %q holds the separator %q", s, sep)
			}
			prev = r[1]
		}
	})
}
