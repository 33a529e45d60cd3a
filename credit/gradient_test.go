package credit

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/credo-rl/credo/reward"
)

func TestP2TTable(t *testing.T) {
	// Response 0: 4 tokens, influence [1, −3, 2, 2]; step [0,2) with logit 0
	// (R = 0.5) and step [2,4) with logit ln 3 (R = 0.75).
	// Response 1: 2 tokens, influence [5, 7]; one step [0,1) with logit 0
	// (R = 0.5). Token 1 follows the last step, as an answer line does: it
	// belongs to that step, which holds tokens [0, 2).
	answers := []Influence{
		{Token: []float64{1, -3, 2, 2}, Steps: []StepScore{{0, 2, 0}, {2, 4, math.Log(3)}}},
		{Token: []float64{5, 7}, Steps: []StepScore{{0, 1, 0}}},
	}
	// Outcome: GRPO on r = [1, 0]: A = ±d, d = 0.5/(√0.5 + ε).
	d := 0.5 / (math.Sqrt(0.5) + 1e-4)
	// Magnitude weights: step 1 |I| = 1, 3 (sum 4, n 2) → [0.5, 1.5]; step 2
	// → [1, 1]; response 1: 2·[5, 7]/12 = [5/6, 7/6].
	q0, q1 := []float64{0.5, 1.5, 1, 1}, []float64{5.0 / 6, 7.0 / 6}
	// Softmax, T = 1: 2·[e⁴, 1]/(e⁴ + 1) and 2·[1, e²]/(1 + e²).
	e4, e2 := math.Exp(4), math.Exp(2)
	sq0, sq1 := []float64{2 * e4 / (e4 + 1), 2 / (e4 + 1), 1, 1}, []float64{2 / (1 + e2), 2 * e2 / (1 + e2)}
	// r_tok = R̃·(0.5 + 0.5·q) for η = 0.5.
	tok := func(rs []float64, q []float64, eta float64) []float64 {
		out := make([]float64, len(q))
		for t, x := range q {
			out[t] = rs[t] * ((1 - eta) + eta*x)
		}
		return out
	}
	mean := (0.5 + 0.75 + 0.5) / 3 // centred: the group's mean step probability
	cases := []struct {
		name         string
		edit         func(*Config)
		rtok0, rtok1 []float64
		q0, q1       []float64
		alpha        float64
	}{{
		// Defaults: R̃ = 2R − 1 = 0 for the steps with R = 0.5 and 0.5 for
		// the second step of response 0; α = 0.1.
		name: "defaults (signed)", edit: func(*Config) {},
		rtok0: tok([]float64{0, 0, 0.5, 0.5}, q0, 0.5), rtok1: []float64{0, 0},
		q0: q0, q1: q1, alpha: 0.1,
	}, {
		name: "unsigned", edit: func(c *Config) { c.StepReward, c.Alpha = StepUnsigned, 1 },
		rtok0: tok([]float64{0.5, 0.5, 0.75, 0.75}, q0, 0.5), rtok1: tok([]float64{0.5, 0.5}, q1, 0.5),
		q0: q0, q1: q1, alpha: 1,
	}, {
		name: "centred", edit: func(c *Config) { c.StepReward = StepCentred },
		rtok0: tok([]float64{0.5 - mean, 0.5 - mean, 0.75 - mean, 0.75 - mean}, q0, 0.5), rtok1: tok([]float64{0.5 - mean, 0.5 - mean}, q1, 0.5),
		q0: q0, q1: q1, alpha: 0.1,
	}, {
		name: "softmax", edit: func(c *Config) { c.Norm, c.StepReward, c.Alpha = NormSoftmax, StepUnsigned, 1 },
		rtok0: tok([]float64{0.5, 0.5, 0.75, 0.75}, sq0, 0.5), rtok1: tok([]float64{0.5, 0.5}, sq1, 0.5),
		q0: sq0, q1: sq1, alpha: 1,
	}, {
		// η = 1 and α = 2: r_tok = R̃·q, doubled.
		name: "eta alpha", edit: func(c *Config) { c.Eta, c.Alpha, c.StepReward = 1, 2, StepUnsigned },
		rtok0: tok([]float64{0.5, 0.5, 0.75, 0.75}, q0, 1), rtok1: tok([]float64{0.5, 0.5}, q1, 1),
		q0: q0, q1: q1, alpha: 2,
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := DefaultConfig()
			c.Null = NullMean
			tc.edit(&c)
			prm := &fakeInfluencer{answers: answers}
			_, offs := toks(4)
			b := &Batch{
				Groups: []int{0, 0}, Scores: [][]float64{{1, 0}},
				Verdicts:  [][]reward.Verdict{{{Spans: []reward.Span{{Start: 1, End: 2}}}, {}}},
				Prompts:   []string{"p", "p"},
				Responses: []string{"abcd", "ab"},
				Tokens:    tokenRows(4, 2),
				Offsets:   [][][2]int{offs, offs[:2]},
				PRM:       prm,
			}
			adv, met := run(t, "p2t", c, b)
			if prm.calls != 1 || prm.null != NullMean || len(prm.reqs) != 2 || prm.reqs[1].Response != "ab" {
				t.Errorf("PRM called %d times with null %q and %d requests", prm.calls, prm.null, len(prm.reqs))
			}
			want0, want1 := make([]float64, 4), make([]float64, 2)
			for t2, r := range tc.rtok0 {
				want0[t2] = d + tc.alpha*r
			}
			for t2, r := range tc.rtok1 {
				want1[t2] = -d + tc.alpha*r
			}
			assertRow(t, "tokens 0", adv.Tokens[0], want0, 1e-12)
			assertRow(t, "tokens 1", adv.Tokens[1], want1, 1e-12)
			assertRow(t, "Response", adv.Response, []float64{d, -d}, 1e-12)
			assertRow(t, "q 0", adv.Relevance[0][0], tc.q0, 1e-12)
			assertRow(t, "q 1", adv.Relevance[0][1], tc.q1, 1e-12)
			// The checked token 1 holds q0[1]/4 of q and is 1/4 of the tokens.
			if got := met["credit/localization/0"]; !near(got, tc.q0[1], 1e-12) {
				t.Errorf("localization = %v, want %v", got, tc.q0[1])
			}
		})
	}
}

// Every response token gets its step's reward: tokens before the first
// step, between steps and after the last (the answer line, the end token)
// belong to the step before them (the first step for leading ones), and
// the step's weights average to one over all of them. With η = 0
// (p2t-step) every token of a step gets exactly R̃_s.
func TestP2TEveryTokenInAStep(t *testing.T) {
	// 8 tokens: token 0 leads, steps [1,3) and [4,5), token 3 separates
	// them, tokens 5-7 are the answer line and the end token. Influence is
	// 0 outside the steps (the PRM reads nothing after the last step).
	in := Influence{Token: []float64{0, 2, 2, 0, 4, 0, 0, 0}, Steps: []StepScore{{1, 3, math.Log(3)}, {4, 5, -math.Log(3)}}}
	// R = 0.75 and 0.25: R̃ = 0.5 and −0.5. Step 1 holds [0, 4): |I| sum 4,
	// n 4: q = [0, 2, 2, 0]. Step 2 holds [4, 8): q = [4, 0, 0, 0].
	wantQ := []float64{0, 2, 2, 0, 4, 0, 0, 0}
	want := map[string][]float64{
		"p2t":      {0.25, 0.75, 0.75, 0.25, -1.25, -0.25, -0.25, -0.25}, // R̃·(0.5 + 0.5·q)
		"p2t-step": {0.5, 0.5, 0.5, 0.5, -0.5, -0.5, -0.5, -0.5},
	}
	for name, rtok := range want {
		c := DefaultConfig()
		ids, offs := toks(8)
		b := &Batch{
			Groups: []int{0}, Scores: [][]float64{{1}}, Prompts: []string{"p"}, Responses: []string{"abcdefgh"},
			Tokens: [][]int32{ids}, Offsets: [][][2]int{offs}, PRM: &fakeInfluencer{answers: []Influence{in}},
		}
		adv, met := run(t, name, c, b)
		wantTok := make([]float64, len(rtok))
		for t2, r := range rtok {
			wantTok[t2] = adv.Response[0] + c.Alpha*r
		}
		assertRow(t, name+" tokens", adv.Tokens[0], wantTok, 1e-12)
		if name == "p2t" {
			assertRow(t, "q", adv.Relevance[0][0], wantQ, 1e-12)
		}
		if !near(met["credit/p2t/step_reward"], 0, 1e-12) {
			t.Errorf("%s: mean step reward %v, want 0", name, met["credit/p2t/step_reward"])
		}
	}
}

// The step rewards' signs: 2R − 1 punishes a step the PRM doubts where R
// alone rewards it less; the group-centred reward subtracts the mean over
// every step of the group's responses, group by group.
func TestStepRewards(t *testing.T) {
	lg := func(p float64) float64 { return math.Log(p / (1 - p)) }
	infl := []Influence{
		{Steps: []StepScore{{Logit: lg(0.2)}, {Logit: lg(0.9)}}},
		{Steps: []StepScore{{Logit: lg(0.4)}}},
		{Steps: []StepScore{{Logit: lg(0.6)}}}, // alone in its group
		{},                                     // no step
	}
	b := &Batch{Groups: []int{0, 0, 1, 1}, Scores: [][]float64{{0, 1, 0, 1}}, Tokens: make([][]int32, 4)}
	v := mustView(t, b)
	for mode, want := range map[StepReward][][]float64{
		StepUnsigned: {{0.2, 0.9}, {0.4}, {0.6}, {}},
		StepSigned:   {{-0.6, 0.8}, {-0.2}, {0.2}, {}},
		StepCentred:  {{0.2 - 0.5, 0.9 - 0.5}, {0.4 - 0.5}, {0}, {}},
	} {
		got := stepRewards(v, infl, mode)
		for i := range want {
			assertRow(t, fmt.Sprintf("%s response %d", mode, i), got[i], want[i], 1e-12)
		}
	}
}

func TestP2TErrors(t *testing.T) {
	_, offs := toks(2)
	batch := func(prm Influencer) *Batch {
		return &Batch{Groups: []int{0}, Scores: [][]float64{{1}}, Prompts: []string{"p"},
			Responses: []string{"ab"}, Tokens: tokenRows(2), Offsets: [][][2]int{offs}, PRM: prm}
	}
	for _, tc := range []struct {
		name string
		b    *Batch
		want string
	}{
		{"nil", batch(nil), "Batch.PRM"},
		{"count", batch(&fakeInfluencer{}), "0 answers for 1"},
		{"tokens", batch(&fakeInfluencer{answers: []Influence{{Token: []float64{1}}}}), "influence on 1 tokens"},
		{"order", batch(&fakeInfluencer{answers: []Influence{{Token: []float64{1, 2}, Steps: []StepScore{{1, 2, 0}, {0, 1, 0}}}}}), "in order"},
		{"range", batch(&fakeInfluencer{answers: []Influence{{Token: []float64{1, 2}, Steps: []StepScore{{0, 3, 0}}}}}), "within"},
		{"nan", batch(&fakeInfluencer{answers: []Influence{{Token: []float64{math.NaN(), 2}, Steps: []StepScore{{0, 2, 0}}}}}), "influence NaN"},
		{"offsets", func() *Batch { b := batch(&fakeInfluencer{}); b.Offsets = nil; return b }(), "Offsets"},
	} {
		_, _, err := mustNew(t, "p2t", DefaultConfig()).Advantages(t.Context(), tc.b)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to mention %q", tc.name, err, tc.want)
		}
	}
}

// A step whose influences are all 0 spreads its reward evenly.
func TestStepWeightsZero(t *testing.T) {
	q := make([]float64, 3)
	stepWeights(q, []float64{0, 0, 0}, NormMagnitude, 1)
	assertRow(t, "q", q, []float64{1, 1, 1}, 0)
	stepWeights(q, []float64{1000, -1000, 0}, NormSoftmax, 0.01) // no overflow
	assertRow(t, "q", q, []float64{3, 0, 0}, 1e-12)
}
