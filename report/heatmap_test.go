package report

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/credo-rl/credo/report/plot"
	"github.com/credo-rl/credo/reward"
)

// tokenRE reads one rendered token: class, background, title, inner markup.
var tokenRE = regexp.MustCompile(`(?s)^<span class="(t[^"]*)"(?: style="background:(#[0-9a-f]{6})")? title="([^"]*)">(.*)</span>$`)

// tokensOf splits a rendered row into its tokens (siblings, each starting
// with class "t").
func tokensOf(t *testing.T, h string) [][]string {
	t.Helper()
	var out [][]string
	for _, tok := range strings.Split(h, `<span class="t`)[1:] {
		m := tokenRE.FindStringSubmatch(`<span class="t` + tok)
		if m == nil {
			t.Fatalf("token markup %q", tok)
		}
		out = append(out, m[1:])
	}
	return out
}

func TestRenderRollout(t *testing.T) {
	s := Sample{Step: 6, Index: 2, Response: "ab\n <x>",
		Tokens:     []string{"ab", "\n", " <x>", ""},
		Offsets:    [][2]int{{0, 2}, {2, 3}, {3, 7}, {7, 7}},
		Advantages: []float64{-2, 0, 1, 0.5}, Advantage: 0.125,
		Relevance: map[string][]float64{"a": {0, 0.5, 2, 1}},
		Verdicts: []Verdict{
			{Reward: "a", Score: 0.5, Spans: []reward.Span{{Start: 4, End: 6}}, Reason: "half"},
			{Reward: "b", Score: 1},
		}}
	v := renderRollout(&Run{Method: "span", Seed: 9}, "#000000", s, true)
	if v.Step != 6 || v.Tokens != 4 || v.Advantage != "0.125" || len(v.Rows) != 3 {
		t.Fatalf("view %+v", v)
	}
	if v.Rows[0].Label != "q · a" || v.Rows[1].Label != "q · b" || v.Rows[2].Label != "A · final" {
		t.Errorf("rows %q %q %q", v.Rows[0].Label, v.Rows[1].Label, v.Rows[2].Label)
	}
	if !strings.Contains(v.Rows[1].Note, "no variance") {
		t.Errorf("b without relevance in a token-level run: note %q", v.Rows[1].Note)
	}
	q := tokensOf(t, string(v.Rows[0].HTML))
	if len(q) != 4 {
		t.Fatalf("%d tokens in %s", len(q), v.Rows[0].HTML)
	}
	for i, w := range []struct{ class, bg, title, text string }{
		{"t", "#ffffff", "#0 q=0 (0.00 of row max)", "ab"},
		{"t", plot.Sequential(0.25), "#1 q=0.5 (0.25 of row max)", `<span class="nl">` + "\n"},
		{"t d in", "#d94801", "#2 q=2 (1.00 of row max) · checked ×1", `<span class="sp"> </span>&lt;x&gt;`},
		{"t e", plot.Sequential(0.5), "#3 q=1 (0.50 of row max)", ""},
	} {
		got := q[i]
		if got[0] != w.class || got[1] != w.bg || got[2] != w.title || !strings.HasPrefix(got[3], w.text) {
			t.Errorf("q token %d = %q, want class %q bg %q title %q text %q", i, got, w.class, w.bg, w.title, w.text)
		}
	}
	a := tokensOf(t, string(v.Rows[2].HTML))
	for i, w := range []struct{ class, bg, title string }{
		{"t d", "#2166ac", "#0 A=-2"}, {"t", "#ffffff", "#1 A=0"}, {"t", plot.Diverging(0.5), "#2 A=1"}, {"t e", plot.Diverging(0.25), "#3 A=0.5"},
	} {
		if got := a[i]; got[0] != w.class || got[1] != w.bg || got[2] != w.title {
			t.Errorf("A token %d = %q, want class %q bg %q title %q", i, got, w.class, w.bg, w.title)
		}
	}
	if v.Verdicts[0].Spans != "[4, 6)×1" || v.Verdicts[0].Reason != "half" {
		t.Errorf("verdict %+v", v.Verdicts[0])
	}
	// A response-level run says so; missing advantages are marked, not invented.
	s.Relevance, s.Advantages = nil, nil
	v = renderRollout(&Run{Method: "grpo"}, "#000000", s, false)
	if !strings.Contains(v.Rows[0].Note, "response-level") || v.Rows[2].Note != "not logged" || strings.Contains(string(v.Rows[2].HTML), "background") {
		t.Errorf("response-level rows %+v", v.Rows)
	}
	if !strings.Contains(string(v.Rows[0].HTML), `class="t in"`) {
		t.Error("the checked token is not marked in an uncoloured row")
	}
}

// TestPick: every method gets a rollout before any gets a second, token-level
// methods get up to three, and the total is capped.
func TestPick(t *testing.T) {
	mk := func(method string, token bool, steps ...int) *Run {
		r := &Run{Method: method}
		for _, st := range steps {
			for i := range 4 {
				s := Sample{Step: st, Index: i, Tokens: []string{"x"}, Advantages: []float64{float64(i % 2)}}
				if token && st == 1 {
					s.Relevance = map[string][]float64{"a": {1}} // relevance only at an earlier step
				}
				r.Samples = append(r.Samples, s)
			}
		}
		return r
	}
	c := &Comparison{Methods: []string{"grpo", "span"}, Runs: []*Run{mk("grpo", false, 1, 2), mk("span", true, 1, 2)}}
	got := pick(c)
	var desc []string
	for _, v := range got {
		desc = append(desc, fmt.Sprintf("%s@%d/%d", v.Method, v.Step, v.Index))
	}
	// Last step (2); informative (odd index, advantage 1) first.
	if want := "[grpo@2/1 span@2/1 span@2/3 span@2/0]"; fmt.Sprint(desc) != want {
		t.Errorf("picked %v, want %s", desc, want)
	}
	if got[1].Rows[0].Note == "response-level method: no relevance" {
		t.Error("span logged relevance earlier: it is token-level")
	}
	var many []*Run
	var names []string
	for i := range 14 {
		n := fmt.Sprintf("m%02d", i)
		names, many = append(names, n), append(many, mk(n, true, 0))
	}
	if got := pick(&Comparison{Methods: names, Runs: many}); len(got) != maxRollouts || got[len(got)-1].Method != "m11" {
		t.Errorf("%d rollouts, last %s; want %d, one per method in order", len(got), got[len(got)-1].Method, maxRollouts)
	}
}
