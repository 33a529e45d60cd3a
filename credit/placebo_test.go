package credit

import (
	"math"
	"testing"

	"github.com/credo-rl/credo/reward"
)

// With Placebo, each token's replay JS loses the JS that adding
// PlaceboBlock to the full prompt causes there, floored at 0; the metrics
// say both means.
func TestReplayPlacebo(t *testing.T) {
	// TestReplayTable's batch, plus the placebo prompt "P\n\nF\n\nA\n\n"+PlaceboBlock.
	// Response 0's placebo replay moves token 0 by js = 0.3112781 and
	// leaves token 1; response 1's moves nothing.
	placebo := "P\n\nF\n\nA\n\n" + PlaceboBlock
	table := map[string][][]float32{
		"P\n\nF\n\nA|[1 2]": {{1, 0, 0}, {0.5, 0.5, 0}},
		"P\n\nA|[1 2]":      {{0, 1, 0}, {0.5, 0, 0.5}},     // JS 1, 0.5
		"P\n\nF|[1 2]":      {{0.5, 0.5, 0}, {0.5, 0.5, 0}}, // JS js, 0
		placebo + "|[1 2]":  {{0.5, 0.5, 0}, {0.5, 0.5, 0}}, // JS js, 0
		"P\n\nF\n\nA|[3]":   {{1, 0, 0}},
		"P\n\nA|[3]":        {{1, 0, 0}}, // 0
		"P\n\nF|[3]":        {{0, 0, 1}}, // 1
		placebo + "|[3]":    {{1, 0, 0}}, // 0
	}
	b := &Batch{
		Groups:  []int{0, 0},
		Scores:  [][]float64{{1, 0}, {0, 1}},
		Weights: []float64{2, 1},
		Rewards: []string{"format", "answer"},
		Verdicts: [][]reward.Verdict{
			{{Score: 1, Info: "F"}, {Score: 0, Info: "F"}},
			{{Score: 0, Info: "A"}, {Score: 1, Info: "A"}},
		},
		Prompts: []string{"P", "P"},
		Tokens:  [][]int32{{1, 2}, {3}},
		Step:    10,
	}
	const js = 0.31127812445913283
	c := DefaultConfig()
	c.Placebo = true
	rp := tableReplayer(t, table)
	b.Replay = rp
	adv, met := run(t, "mrtpo", c, b)
	assertRow(t, "q format 0", adv.Relevance[0][0], []float64{1 - js, 0.5}, 1e-7)
	assertRow(t, "q format 1", adv.Relevance[0][1], []float64{0}, 1e-7)
	assertRow(t, "q answer 0 (no more than the placebo: floored at 0)", adv.Relevance[1][0], []float64{0, 0}, 1e-7)
	assertRow(t, "q answer 1", adv.Relevance[1][1], []float64{1}, 1e-7)
	if len(rp.requests) != 8 {
		t.Errorf("%d requests, want 8 (a full, a placebo and two without-k per response)", len(rp.requests))
	}
	if got, want := met["credit/replay/js"], (2.5+js)/6; math.Abs(got-want) > 1e-9 {
		t.Errorf("credit/replay/js %v, want %v", got, want)
	}
	if got, want := met["credit/replay/placebo_js"], 2*js/6; math.Abs(got-want) > 1e-9 {
		t.Errorf("credit/replay/placebo_js %v, want %v", got, want)
	}

	// Off (the default), the same batch makes no placebo replay and keeps q.
	delete(table, placebo+"|[1 2]")
	delete(table, placebo+"|[3]")
	rp = tableReplayer(t, table)
	b.Replay = rp
	adv, met = run(t, "mrtpo", DefaultConfig(), b)
	assertRow(t, "q answer 0 without placebo", adv.Relevance[1][0], []float64{js, 0}, 1e-7)
	if _, ok := met["credit/replay/placebo_js"]; ok || len(rp.requests) != 6 {
		t.Errorf("placebo off: %d requests, metrics %v", len(rp.requests), met)
	}
}
