package plot

import (
	"strings"
	"testing"
)

// The colour scales' ends and middle, clamped outside their range.
func TestColourScales(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want string
	}{
		{"sequential 0", Sequential(0), "#ffffff"},
		{"sequential 1", Sequential(1), "#d94801"},
		{"sequential clamps", Sequential(7), "#d94801"},
		{"diverging −1", Diverging(-1), "#2166ac"},
		{"diverging 0", Diverging(0), "#ffffff"},
		{"diverging 1", Diverging(1), "#b2182b"},
		{"diverging clamps", Diverging(-3), "#2166ac"},
	} {
		if c.got != c.want {
			t.Errorf("%s = %s, want %s", c.name, c.got, c.want)
		}
	}
}

// TokenLine escapes the text, keeps whitespace as marked spans, scales by
// the row's largest |value| and marks what was not logged.
func TestTokenLine(t *testing.T) {
	got := string(TokenLine([]string{"<a>", " ", "b"}, []float64{2, -1}, []float64{0, 0, 1}, "A", Diverging))
	for _, want := range []string{
		`<span class="t d" style="background:#b2182b" title="#0 A=2">&lt;a&gt;</span>`,
		`title="#1 A=-1"><span class="sp"> </span></span>`,
		`<span class="t in" title="#2 A: not logged · checked ×1">b</span>`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %s in\n%s", want, got)
		}
	}
}
