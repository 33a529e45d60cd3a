package tags

import (
	"errors"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in      string
		inner   []string
		errMsg  string
		errSpan [2]int
	}{
		{in: "<think>a</think><answer>b</answer>", inner: []string{"a", "b"}},
		{in: " <think>a</think>\n<answer>b</answer>\n", inner: []string{"a", "b"}},
		{in: "<think>a</think><answer>b", errMsg: "missing </answer>", errSpan: [2]int{24, 25}},
		{in: "<answer>b</answer>", errMsg: "missing <think>", errSpan: [2]int{0, 7}},
		{in: "x<think>a</think><answer>b</answer>", errMsg: "unexpected text before <think>", errSpan: [2]int{0, 1}},
		{in: "<think>a</think><answer>b</answer>!", errMsg: "unexpected text after the last element", errSpan: [2]int{34, 35}},
		{in: "<think>a<think></think><answer>b</answer>", errMsg: "<think> opened twice", errSpan: [2]int{8, 15}},
		{in: "", errMsg: "missing <think>", errSpan: [2]int{0, 0}},
	}
	for _, tt := range tests {
		parts, err := Parse(tt.in, "think", "answer")
		if tt.errMsg != "" {
			var e *Error
			if !errors.As(err, &e) || e.Msg != tt.errMsg || [2]int{e.Start, e.End} != tt.errSpan {
				t.Errorf("Parse(%q) error = %v %+v, want %q at %v", tt.in, err, e, tt.errMsg, tt.errSpan)
			}
			continue
		}
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.in, err)
		}
		for i, p := range parts {
			if p.Inner != tt.inner[i] || tt.in[p.InnerStart:p.InnerStart+len(p.Inner)] != p.Inner {
				t.Errorf("Parse(%q) part %d = %+v", tt.in, i, p)
			}
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add("<think>a</think><answer>b</answer>")
	f.Add("<think>\xff</think><answer>")
	f.Fuzz(func(t *testing.T, s string) {
		parts, err := Parse(s, "think", "answer")
		var e *Error
		if errors.As(err, &e) && (e.Start < 0 || e.End > len(s) || e.Start > e.End) {
			t.Fatalf("error span %d..%d outside %d bytes", e.Start, e.End, len(s))
		}
		for _, p := range parts {
			if s[p.InnerStart:p.InnerStart+len(p.Inner)] != p.Inner || p.Start < 0 || p.End > len(s) {
				t.Fatalf("part %+v does not locate its text", p)
			}
		}
	})
}
