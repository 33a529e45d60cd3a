package credit

import (
	"math"
	"strings"
	"testing"

	"github.com/credo-rl/credo/reward"
)

func TestP2TTable(t *testing.T) {
	// Response 0: 4 tokens, influence [1, −3, 2, 2]; step [0,2) with logit 0
	// (R = 0.5) and step [2,4) with logit ln 3 (R = 0.75).
	// Response 1: 2 tokens, influence [5, 7]; step [0,1) with logit 0; token 1
	// is outside every step.
	answers := []Influence{
		{Token: []float64{1, -3, 2, 2}, Steps: []StepScore{{0, 2, 0}, {2, 4, math.Log(3)}}},
		{Token: []float64{5, 7}, Steps: []StepScore{{0, 1, 0}}},
	}
	// Outcome: GRPO on r = [1, 0]: A = ±d, d = 0.5/(√0.5 + ε).
	d := 0.5 / (math.Sqrt(0.5) + 1e-4)
	cases := []struct {
		name       string
		edit       func(*Config)
		rtok0      []float64
		rtok1      []float64
		q0         []float64
		alphaScale float64
	}{{
		// magnitude: step 1 |I| = 1, 3 (sum 4, n 2) → q = [0.5, 1.5]; step 2 → [1, 1].
		// r_tok = R·(0.5 + 0.5·q) = [0.5·0.75, 0.5·1.25, 0.75, 0.75].
		// Response 1: q = [1, 0]; r_tok = [0.5, 0].
		name: "magnitude", edit: func(*Config) {},
		rtok0: []float64{0.375, 0.625, 0.75, 0.75}, rtok1: []float64{0.5, 0},
		q0: []float64{0.5, 1.5, 1, 1}, alphaScale: 1,
	}, {
		// softmax, T = 1: step 1 q = 2·[e⁴, 1]/(e⁴ + 1) = [1.9640276, 0.0359724];
		// r_tok = 0.25 + 0.25·q = [0.7410069, 0.2589931].
		name: "softmax", edit: func(c *Config) { c.Norm = NormSoftmax },
		rtok0: []float64{0.7410068950189542, 0.2589931049810458, 0.75, 0.75}, rtok1: []float64{0.5, 0},
		q0: []float64{1.964027580075817, 0.03597241992418312, 1, 1}, alphaScale: 1,
	}, {
		// signed: 2R − 1 = 0 for step 1, 0.5 for step 2.
		name: "signed", edit: func(c *Config) { c.Signed = true },
		rtok0: []float64{0, 0, 0.5, 0.5}, rtok1: []float64{0, 0},
		q0: []float64{0.5, 1.5, 1, 1}, alphaScale: 1,
	}, {
		// η = 1 and α = 2: r_tok = R·q, doubled.
		name: "eta alpha", edit: func(c *Config) { c.Eta, c.Alpha = 1, 2 },
		rtok0: []float64{0.25, 0.75, 0.75, 0.75}, rtok1: []float64{0.5, 0},
		q0: []float64{0.5, 1.5, 1, 1}, alphaScale: 2,
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
				want0[t2] = d + tc.alphaScale*r
			}
			for t2, r := range tc.rtok1 {
				want1[t2] = -d + tc.alphaScale*r
			}
			assertRow(t, "tokens 0", adv.Tokens[0], want0, 1e-12)
			assertRow(t, "tokens 1", adv.Tokens[1], want1, 1e-12)
			assertRow(t, "Response", adv.Response, []float64{d, -d}, 1e-12)
			assertRow(t, "q", adv.Relevance[0][0], tc.q0, 1e-12)
			// The checked token 1 holds q0[1]/4 of q and is 1/4 of the tokens.
			if got := met["credit/localization/0"]; !near(got, tc.q0[1], 1e-12) {
				t.Errorf("localization = %v, want %v", got, tc.q0[1])
			}
		})
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
