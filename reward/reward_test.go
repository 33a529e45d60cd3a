package reward

import (
	"context"
	"slices"
	"strings"
	"testing"
)

func TestTokenStrengths(t *testing.T) {
	// "héllo wörld": é and ö are two bytes each. Byte offsets of 6 tokens:
	// "h" [0,1) "é" [1,3) "llo" [3,6) " " [6,7) "wö" [7,10) "rld" [10,13).
	offsets := [][2]int{{0, 1}, {1, 3}, {3, 6}, {6, 7}, {7, 10}, {10, 13}}
	tests := []struct {
		name  string
		spans []Span
		want  []float64
	}{
		{"none", nil, []float64{0, 0, 0, 0, 0, 0}},
		{"one token exactly", []Span{{Start: 1, End: 3}}, []float64{0, 1, 0, 0, 0, 0}},
		{"a span cutting a multi-byte token includes it", []Span{{Start: 2, End: 4}}, []float64{0, 1, 1, 0, 0, 0}},
		{"strengths, the largest wins", []Span{{Start: 0, End: 13, Strength: 0.5}, {Start: 7, End: 8, Strength: 2}}, []float64{0.5, 0.5, 0.5, 0.5, 2, 0.5}},
		{"empty span marks the token holding it", []Span{{Start: 8, End: 8}}, []float64{0, 0, 0, 0, 1, 0}},
		{"span at the end", []Span{{Start: 12, End: 13}}, []float64{0, 0, 0, 0, 0, 1}},
		{"inverted span ignored", []Span{{Start: 5, End: 2}}, []float64{0, 0, 0, 0, 0, 0}},
		{"outside the response", []Span{{Start: 20, End: 30}}, []float64{0, 0, 0, 0, 0, 0}},
	}
	for _, tt := range tests {
		if got := TokenStrengths(tt.spans, offsets); !slices.Equal(got, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
	// An empty token (EOS at the end of the text) is inside a span that
	// contains its position.
	if got := TokenStrengths([]Span{{Start: 0, End: 14}}, [][2]int{{13, 13}}); got[0] != 1 {
		t.Errorf("empty token inside a span: %v", got)
	}
}

func TestTokenEffects(t *testing.T) {
	offsets := [][2]int{{0, 2}, {2, 4}, {4, 6}, {6, 8}}
	for _, tc := range []struct {
		name     string
		spans    []Span
		strength []float64
		effect   []Effect
	}{
		{"none", nil, []float64{0, 0, 0, 0}, []Effect{0, 0, 0, 0}},
		{"effects kept", []Span{{Start: 0, End: 2, Effect: Lowered}, {Start: 4, End: 6, Effect: Raised}},
			[]float64{1, 0, 1, 0}, []Effect{Lowered, Neutral, Raised, Neutral}},
		{"the stronger span's effect", []Span{{Start: 0, End: 8, Strength: 2, Effect: Raised}, {Start: 2, End: 4, Effect: Lowered}},
			[]float64{2, 2, 2, 2}, []Effect{Raised, Raised, Raised, Raised}},
		{"a tie goes to the lower effect", []Span{{Start: 0, End: 4, Effect: Raised}, {Start: 2, End: 6, Effect: Lowered}, {Start: 4, End: 8}},
			[]float64{1, 1, 1, 1}, []Effect{Raised, Lowered, Lowered, Neutral}},
		{"out-of-range effects clamp", []Span{{Start: 0, End: 2, Effect: -5}, {Start: 2, End: 4, Effect: 7}},
			[]float64{1, 1, 0, 0}, []Effect{Lowered, Raised, Neutral, Neutral}},
	} {
		s, e := TokenEffects(tc.spans, offsets)
		if !slices.Equal(s, tc.strength) || !slices.Equal(e, tc.effect) {
			t.Errorf("%s: strengths %v effects %v, want %v %v", tc.name, s, e, tc.strength, tc.effect)
		}
		if got := TokenStrengths(tc.spans, offsets); !slices.Equal(got, s) {
			t.Errorf("%s: TokenStrengths %v, TokenEffects %v", tc.name, got, s)
		}
	}
}

type constVerifier struct{ name string }

func (v constVerifier) Name() string { return v.name }
func (v constVerifier) Verify(context.Context, Prompt, string) (Verdict, error) {
	return Verdict{Score: 1}, nil
}

func TestRegistry(t *testing.T) {
	Register("test-const", func(spec string) (Verifier, error) { return constVerifier{spec}, nil })
	v, err := New("test-const", "x")
	if err != nil || v.Name() != "x" {
		t.Fatalf("New: %v %v", v, err)
	}
	_, err = New("nope", "")
	if err == nil || !strings.Contains(err.Error(), "test-const") {
		t.Errorf("unknown verifier error %v does not list the known ones", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("a duplicate registration did not panic")
		}
	}()
	Register("test-const", nil)
}

func TestSpanWeight(t *testing.T) {
	if (Span{}).Weight() != 1 || (Span{Strength: 0.25}).Weight() != 0.25 {
		t.Error("a span's weight is its strength, 1 when unset")
	}
}

func TestCompose(t *testing.T) {
	for _, tc := range []struct {
		prompt string
		blocks []string
		want   string
	}{
		{"p", nil, "p"},
		{"p", []string{"a", "", "b"}, "p\n\na\n\nb"},
		{"p", []string{"", ""}, "p"},
		{"", []string{"a"}, "\n\na"},
	} {
		if got := Compose(tc.prompt, tc.blocks); got != tc.want {
			t.Errorf("Compose(%q, %q) = %q, want %q", tc.prompt, tc.blocks, got, tc.want)
		}
	}
}
