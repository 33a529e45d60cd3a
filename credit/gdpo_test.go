package credit

import (
	"math"
	"testing"
)

func TestGDPOTable(t *testing.T) {
	eps := 1e-4
	// Group 0 (responses 0-2): r0 = [0, 1, 2]: mean 1, std 1, A0 = [−1, 0, 1]/1.0001;
	//   r1 = [4, 0, 2]: mean 2, std √((4+4+0)/2) = 2, A1 = [2, −2, 0]/2.0001.
	// Group 1 (responses 3-4): r0 = [5, 5]: no variance, A0 = 0;
	//   r1 = [1, 0]: mean 0.5, std √0.5, A1 = ±0.5/(0.70710678 + ε) = ±0.70700680.
	a, b, d := 1/(1+eps), 2/(2+eps), 0.5/(math.Sqrt(0.5)+eps)
	// S = [−a+b, −b, a, d, −d] = [0.0000499925, −0.99995, 0.9999, 0.70700680, −0.70700680];
	// mean_batch S = 0; std_batch S = 0.86594128803155.
	S := []float64{-a + b, -b, a, d, -d}
	std := 0.8659412880315507
	want := make([]float64, 5)
	for i, s := range S {
		want[i] = s / (std + eps)
	}
	// = [0.0000577253, −1.15462163, 1.15456390, 0.81636615, −0.81636615]
	assertRow(t, "hand", want, []float64{5.7725308903475194e-05, -1.1546216286901159, 1.1545639033812125, 0.8163661537819505, -0.8163661537819505}, 1e-12)

	b1 := &Batch{Groups: []int{0, 0, 0, 1, 1}, Scores: [][]float64{{0, 1, 2, 5, 5}, {4, 0, 2, 1, 0}},
		Rewards: []string{"x", "y"}, Tokens: tokenRows(3, 1, 2, 4, 2)}
	adv, met := run(t, "gdpo", DefaultConfig(), b1)
	assertRow(t, "Response", adv.Response, want, 1e-12)
	for i, row := range adv.Tokens {
		for _, x := range row {
			if x != adv.Response[i] {
				t.Errorf("gdpo token of response %d = %v, want %v", i, x, adv.Response[i])
			}
		}
	}
	// Reward x has no variance in group 1: 2 of 10 pairs skipped.
	if met["credit/skipped"] != 0.2 {
		t.Errorf("credit/skipped = %v, want 0.2", met["credit/skipped"])
	}
	// Uniform relevance: 80% of a 3-token response needs 3 tokens (1), of a
	// 1-token one 1 token (1), of a 4-token one 4 tokens (0.8·4 = 3.2 → 4, 1),
	// of 2 tokens 2 (1): for x over responses 0-2: mean of (1, 1, 1) = 1.
	if got := met["credit/concentration/x"]; got != 1 {
		t.Errorf("credit/concentration/x = %v, want 1", got)
	}

	// Weights c = [1, 3]: only reward y's advantages are tripled.
	b1.Weights = []float64{1, 3}
	adv, _ = run(t, "gdpo", DefaultConfig(), b1)
	S = []float64{-a + 3*b, -3 * b, a, 3 * d, -3 * d}
	mean, sd := normMeanStd(S, nil)
	for i, s := range S {
		if !near(adv.Response[i], (s-mean)/(sd+eps), 1e-12) {
			t.Errorf("weighted Â[%d] = %v, want %v", i, adv.Response[i], (s-mean)/(sd+eps))
		}
	}
}

// When the rewards cancel out exactly (S equal everywhere), the batch std
// is taken as 1 so placement stays bounded; Â is 0.
func TestGDPOCancelling(t *testing.T) {
	b := &Batch{Groups: []int{0, 0}, Scores: [][]float64{{1, 0}, {0, 1}}, Tokens: tokenRows(2, 2)}
	adv, _ := run(t, "gdpo", DefaultConfig(), b)
	for i, a := range adv.Response {
		if math.Abs(a) > 1e-12 {
			t.Errorf("Â[%d] = %v, want 0", i, a)
		}
	}
}
