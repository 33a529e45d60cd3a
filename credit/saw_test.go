package credit

import (
	"math"
	"strings"
	"testing"

	"github.com/credo-rl/credo/reward"
)

func TestSAWTable(t *testing.T) {
	// Batch of 4 (groups 0,0,1,1). a = [1, 0, 1, 0]: mean 0.5, std √(1/3),
	// CV = 1.1547005; b = [1, 1, 1, 0]: mean 0.75, std 0.5, CV = 2/3.
	// c = 2·CV/ΣCV = [3 − √3, √3 − 1] = [1.2679492, 0.7320508].
	// With o[b] = 1: b + 1 has mean 1.75, std 0.5, CV = 2/7:
	// c = [1.6032889, 0.3967111].
	for _, tc := range []struct {
		name    string
		offsets map[string]float64
		want    []float64
	}{
		{"plain", nil, []float64{3 - math.Sqrt(3), math.Sqrt(3) - 1}},
		{"offset", map[string]float64{"b": 1}, []float64{1.6032888846529505, 0.39671111534704967}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := &Batch{Groups: []int{0, 0, 1, 1}, Scores: [][]float64{{1, 0, 1, 0}, {1, 1, 1, 0}},
				Weights: []float64{5, 5}, // replaced by SAW
				Rewards: []string{"a", "b"}, Tokens: tokenRows(2, 2, 2, 2)}
			c := DefaultConfig()
			c.SAWOffsets = tc.offsets
			for _, inner := range []string{"grpo", "gdpo"} {
				got, met := run(t, "saw+"+inner, c, b)
				assertRow(t, "weights", []float64{met["credit/saw/weight/a"], met["credit/saw/weight/b"]}, tc.want, 1e-12)
				plain := *b
				plain.Weights = tc.want
				want, _ := run(t, inner, c, &plain)
				assertRow(t, inner+" Response", got.Response, want.Response, 1e-12)
				if b.Weights[0] != 5 {
					t.Fatalf("SAW changed the caller's batch")
				}
			}
		})
	}
}

func TestSAWEdges(t *testing.T) {
	// No reward varies over the batch: the batch's weights stay.
	b := &Batch{Groups: []int{0, 0}, Scores: [][]float64{{1, 1}, {0, 0}}, Weights: []float64{2, 3}, Tokens: tokenRows(1, 1)}
	_, met := run(t, "saw+gdpo", DefaultConfig(), b)
	if met["credit/saw/weight/0"] != 2 || met["credit/saw/weight/1"] != 3 {
		t.Errorf("weights %v, want the batch's 2 and 3", met)
	}
	// A constant reward gets weight 0; the varying one all K = 2.
	b.Scores = [][]float64{{1, 1}, {1, 0}}
	_, met = run(t, "saw+gdpo", DefaultConfig(), b)
	if met["credit/saw/weight/0"] != 0 || met["credit/saw/weight/1"] != 2 {
		t.Errorf("weights %v, want 0 and 2", met)
	}
	// Skipped verdicts are left out: reward 0 is constant where it applies.
	b.Scores = [][]float64{{1, 1, 7}, {1, 0, 1}}
	b.Groups = []int{0, 0, 1}
	b.Tokens = tokenRows(1, 1, 1)
	b.Verdicts = [][]reward.Verdict{{{}, {}, {Skip: true}}, {{}, {}, {}}}
	_, met = run(t, "saw+gdpo", DefaultConfig(), b)
	if met["credit/saw/weight/0"] != 0 {
		t.Errorf("weights %v: the skipped 7 was counted", met)
	}
	// A signed reward around 0: an error that asks for an offset.
	b = &Batch{Groups: []int{0, 0}, Scores: [][]float64{{-1, 1}}, Rewards: []string{"s"}, Tokens: tokenRows(1, 1)}
	_, _, err := mustNew(t, "saw+grpo", DefaultConfig()).Advantages(t.Context(), b)
	if err == nil || !strings.Contains(err.Error(), `saw_offsets["s"]`) {
		t.Errorf("err = %v, want a hint at saw_offsets", err)
	}
	c := DefaultConfig()
	c.SAWOffsets = map[string]float64{"s": 2}
	if _, _, err := mustNew(t, "saw+grpo", c).Advantages(t.Context(), b); err != nil {
		t.Errorf("with an offset: %v", err)
	}
}
