package credit

import (
	"math"
	"testing"

	"github.com/credo-rl/credo/reward"
)

func TestGRPOTable(t *testing.T) {
	eps := 1e-4
	r1 := math.Sqrt(0.5) // std of {2,1,0,1,1}
	cases := []struct {
		name    string
		scale   ScaleMode
		groups  []int
		scores  [][]float64
		weights []float64
		skip    map[[2]int]bool // (k, i)
		want    []float64
		skipped float64
	}{{
		// R = r1 + r2 = [2, 1, 0]; mean 1; std √((1+0+1)/2) = 1.
		// A = (R − 1)/(1 + ε) = [1/1.0001, 0, −1/1.0001].
		name: "group", scale: ScaleGroup, groups: []int{7, 7, 7},
		scores: [][]float64{{1, 0, 0}, {1, 1, 0}},
		want:   []float64{1 / (1 + eps), 0, -1 / (1 + eps)},
	}, {
		// c = [2, 1]: R = [3, 1, 0]; mean 4/3; deviations 5/3, −1/3, −4/3;
		// std √((25+1+16)/9/2) = √(7/3) = 1.5275252…; A = dev/(1.5276252…).
		name: "weighted", scale: ScaleGroup, groups: []int{0, 0, 0},
		scores: [][]float64{{1, 0, 0}, {1, 1, 0}}, weights: []float64{2, 1},
		want: []float64{1.0910180272843248, -0.21820360545686493, -0.8728144218274598},
	}, {
		// Dr. GRPO: R − mean only.
		name: "none", scale: ScaleNone, groups: []int{0, 0, 0},
		scores: [][]float64{{1, 0, 0}, {1, 1, 0}},
		want:   []float64{1, 0, -1},
	}, {
		// Two groups, R = [2, 1, 0 | 1, 1]: the batch std of R is
		// √((1+0+1+0+0)/4) = √0.5; group means 1 and 1.
		name: "batch", scale: ScaleBatch, groups: []int{0, 0, 0, 1, 1},
		scores: [][]float64{{1, 0, 0, 1, 0}, {1, 1, 0, 0, 1}},
		want:   []float64{1 / (r1 + eps), 0, -1 / (r1 + eps), 0, 0},
		// reward 0 in group 1 = [1, 0], reward 1 = [0, 1]: both vary.
	}, {
		// A group of one: mean r, std 1, A = 0; a no-variance pair.
		name: "single", scale: ScaleGroup, groups: []int{3},
		scores: [][]float64{{0.7}, {0.2}}, want: []float64{0}, skipped: 1,
	}, {
		// Reward 1 does not apply to response 0 (Skip): its 5 counts as 0.
		// R = [0, 1, 1]; mean 2/3; std √((4/9+1/9+1/9)/2) = √(1/3).
		// Reward 0 has no variance: 3 of the 5 applicable pairs are skipped.
		name: "skip", scale: ScaleGroup, groups: []int{0, 0, 0},
		scores: [][]float64{{0, 0, 0}, {5, 1, 1}}, skip: map[[2]int]bool{{1, 0}: true},
		want:    []float64{-1.1545005730142688, 0.5772502865071345, 0.5772502865071345},
		skipped: 3.0 / 5,
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			n := len(tc.groups)
			verdicts := make([][]reward.Verdict, len(tc.scores))
			for k := range verdicts {
				verdicts[k] = make([]reward.Verdict, n)
				for i := range n {
					verdicts[k][i].Skip = tc.skip[[2]int{k, i}]
				}
			}
			lens := make([]int, n)
			for i := range lens {
				lens[i] = i + 2
			}
			c := DefaultConfig()
			c.Scale = tc.scale
			adv, met := run(t, "grpo", c, &Batch{Groups: tc.groups, Scores: tc.scores, Weights: tc.weights,
				Verdicts: verdicts, Tokens: tokenRows(lens...)})
			assertRow(t, "Response", adv.Response, tc.want, 1e-12)
			for i, row := range adv.Tokens {
				if len(row) != lens[i] {
					t.Fatalf("response %d has %d token advantages for %d tokens", i, len(row), lens[i])
				}
				for _, a := range row {
					if a != adv.Response[i] {
						t.Errorf("token of response %d = %v, want the response's %v", i, a, adv.Response[i])
					}
				}
			}
			if got := met["credit/skipped"]; !near(got, tc.skipped, 1e-12) {
				t.Errorf("credit/skipped = %v, want %v", got, tc.skipped)
			}
			if adv.Relevance != nil {
				t.Errorf("grpo computed relevance %v", adv.Relevance)
			}
		})
	}
}
