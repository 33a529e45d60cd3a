package credit

import (
	"testing"

	"github.com/credo-rl/credo/reward"
)

// Every method reports the diagnostics; Skip verdicts are left out.
func TestDiagnosticsEveryMethod(t *testing.T) {
	ids, offs := toks(5)
	spans := []reward.Span{{Start: 1, End: 2}}
	b := &Batch{
		Groups:  []int{0, 0, 0, 1, 1},
		Scores:  [][]float64{{1, 0, 0, 1, 1}, {0, 0, 1, 0, 0}},
		Rewards: []string{"a", "b"},
		Verdicts: [][]reward.Verdict{
			{{Spans: spans, Info: "A"}, {Spans: spans, Info: "A"}, {Spans: spans, Info: "A"}, {Spans: spans, Info: "A"}, {Spans: spans, Info: "A"}},
			{{Spans: spans, Info: "B"}, {Spans: spans, Info: "B"}, {Spans: spans, Info: "B"}, {Skip: true}, {Skip: true}},
		},
		Prompts:   []string{"p", "p", "p", "q", "q"},
		Responses: []string{"abcde", "abcde", "abcde", "abcde", "abcde"},
		Tokens:    [][]int32{ids, ids, ids, ids, ids},
		Offsets:   [][][2]int{offs, offs, offs, offs, offs},
		Replay:    hashReplayer(11),
		PRM: &fakeInfluencer{answers: []Influence{
			{Token: []float64{1, 2, 3, 4, 5}, Steps: []StepScore{{0, 5, 0}}},
			{Token: []float64{1, 2, 3, 4, 5}, Steps: []StepScore{{0, 5, 0}}},
			{Token: []float64{1, 2, 3, 4, 5}, Steps: []StepScore{{0, 5, 0}}},
			{Token: []float64{1, 2, 3, 4, 5}, Steps: []StepScore{{0, 5, 0}}},
			{Token: []float64{1, 2, 3, 4, 5}, Steps: []StepScore{{0, 5, 0}}},
		}},
	}
	// Applicable pairs: a on 5 responses, b on 3 = 8; without variance:
	// a in group 1 (2 pairs): skipped = 2/8.
	for _, name := range []string{"grpo", "gdpo", "span", "mrtpo", "p2t", "saw+span"} {
		_, met := run(t, name, DefaultConfig(), b)
		if met["credit/skipped"] != 0.25 {
			t.Errorf("%s: credit/skipped = %v, want 0.25", name, met["credit/skipped"])
		}
		for _, key := range []string{"credit/concentration/a", "credit/concentration/b", "credit/localization/a", "credit/localization/b"} {
			if _, ok := met[key]; !ok {
				t.Errorf("%s: no %s in %v", name, key, met)
			}
		}
		if name == "grpo" || name == "gdpo" {
			// Uniform: 4 of 5 tokens hold 80%; localization 1.
			if !near(met["credit/concentration/a"], 0.8, 1e-12) || met["credit/localization/b"] != 1 {
				t.Errorf("%s: uniform diagnostics %v", name, met)
			}
		}
	}
}
