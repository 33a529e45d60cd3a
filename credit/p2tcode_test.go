package credit

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestP2TCodeHand: P2T as its released code runs it, on a batch worked by
// hand, whatever the config says about the options the code fixes.
func TestP2TCodeHand(t *testing.T) {
	// Response 0: 4 tokens and an end token (empty range) that the fake
	// gives influence 9, to show it is ignored. Step [0,2): logit ln 3,
	// R = 0.75, R̃ = 0.5; step [2,4): logit −ln 3, R̃ = −0.5, holding tokens
	// 2, 3 and not the end token. Response 1: no step.
	answers := []Influence{
		{Token: []float64{1, -1, 0, 2, 9}, Steps: []StepScore{{0, 2, math.Log(3)}, {2, 4, -math.Log(3)}}},
		{Token: []float64{0, 0}},
	}
	e2 := math.Exp(2)
	// softmax([1, −1]) = [e², 1]/(e² + 1), softmax([0, 2]) = [1, e²]/(1 + e²);
	// R^P2T = N_s·R̃_s·softmax with N_s = 2, R^process = R̃_s.
	w1, w2 := []float64{e2 / (e2 + 1), 1 / (e2 + 1)}, []float64{1 / (1 + e2), e2 / (1 + e2)}
	p2tR := []float64{2 * 0.5 * w1[0], 2 * 0.5 * w1[1], 2 * -0.5 * w2[0], 2 * -0.5 * w2[1], 0}
	proc := []float64{0.5, 0.5, -0.5, -0.5, 0}
	d := 0.5 / (math.Sqrt(0.5) + 1e-4) // GRPO on r = [1, 0]
	want0 := make([]float64, 5)
	for t2 := range want0 {
		want0[t2] = d + 0.1*p2tR[t2] + 0.1*proc[t2]
	}
	c := DefaultConfig()
	// The options the code fixes are overridden; Null passes through.
	c.Null, c.Alpha, c.Eta, c.Norm, c.StepReward = NullMean, 1, 0, NormMagnitude, StepUnsigned
	c.Target, c.Carry = TargetProb, CarrySum
	prm := &fakeInfluencer{answers: answers}
	b := &Batch{
		Groups: []int{0, 0}, Scores: [][]float64{{1, 0}},
		Prompts: []string{"p", "p"}, Responses: []string{"abcd", "a"},
		Tokens:  tokenRows(5, 2),
		Offsets: [][][2]int{{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 4}}, {{0, 1}, {1, 1}}},
		PRM:     prm,
	}
	adv, met := run(t, "p2t-code", c, b)
	if prm.calls != 1 || prm.null != NullMean || len(prm.reqs) != 2 {
		t.Fatalf("PRM called %d times with null %q, %d requests", prm.calls, prm.null, len(prm.reqs))
	}
	for i, r := range prm.reqs {
		if r.Target != TargetLogit || r.Carry != CarryMean {
			t.Errorf("request %d asks target %q, carry %q: want logit (z₁ − z₀) and mean", i, r.Target, r.Carry)
		}
	}
	assertRow(t, "tokens 0", adv.Tokens[0], want0, 1e-12)
	assertRow(t, "tokens 1", adv.Tokens[1], []float64{-d, -d}, 1e-12)
	assertRow(t, "Response", adv.Response, []float64{d, -d}, 1e-12)
	assertRow(t, "q 0", adv.Relevance[0][0], []float64{2 * w1[0], 2 * w1[1], 2 * w2[0], 2 * w2[1], 0}, 1e-12)
	if got := met["credit/p2t/step_reward"]; !near(got, 0, 1e-12) {
		t.Errorf("mean step reward %v, want 0", got)
	}
	if r := RequirementsOf(mustNew(t, "p2t-code", DefaultConfig())); !r.PRM {
		t.Errorf("p2t-code requires %+v, want the PRM", r)
	}
}

// TestPropertyP2TCode: on random batches, with and without an end token,
//   - p2t-code is credo's p2t formula at softmax weights, η = 0.5, α = 0.2
//     and signed step rewards wherever no token is empty;
//   - within each step its token rewards sum to 0.2·N_s·R̃_s (softmax sums
//     to one: 0.1·N_s·R̃_s redistributed, 0.1·R̃_s on each of N_s tokens);
//   - an empty-range token gets the outcome advantage alone.
func TestPropertyP2TCode(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	for trial := range 200 {
		b := randomBatch(rng, 1+rng.IntN(3))
		c := DefaultConfig()
		code, _ := run(t, "p2t-code", c, b)
		c.Norm, c.Eta, c.Alpha, c.StepReward = NormSoftmax, 0.5, 0.2, StepSigned
		paper, _ := run(t, "p2t", c, b)
		for i := range code.Tokens {
			assertRow(t, "p2t-code as p2t", code.Tokens[i], paper.Tokens[i], 1e-12)
		}
		// The end token: an empty range after each response, influence 0.
		infl := b.PRM.(*fakeInfluencer).answers
		for i := range b.Tokens {
			n := len(b.Responses[i])
			b.Tokens[i] = append(b.Tokens[i], 0)
			b.Offsets[i] = append(b.Offsets[i], [2]int{n, n})
			infl[i].Token = append(infl[i].Token, 0)
		}
		adv, _ := run(t, "p2t-code", DefaultConfig(), b)
		for i, row := range adv.Tokens {
			if end := row[len(row)-1]; end != adv.Response[i] {
				t.Fatalf("trial %d response %d: end token %v, outcome %v", trial, i, end, adv.Response[i])
			}
			for j, s := range infl[i].Steps {
				start, stop := s.Start, len(row)-1
				if j == 0 {
					start = 0
				}
				if j+1 < len(infl[i].Steps) {
					stop = infl[i].Steps[j+1].Start
				}
				var sum float64
				for t2 := start; t2 < stop; t2++ {
					sum += row[t2] - adv.Response[i]
				}
				rs := 2/(1+math.Exp(-s.Logit)) - 1
				if want := 0.2 * float64(stop-start) * rs; !near(sum, want, 1e-9) {
					t.Fatalf("trial %d response %d step %d: token rewards sum to %v, want 0.2·%d·%v", trial, i, j, sum, stop-start, rs)
				}
			}
		}
	}
}
