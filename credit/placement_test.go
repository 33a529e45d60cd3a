package credit

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/credo-rl/credo/reward"
)

func TestBetaWarmup(t *testing.T) {
	c := DefaultConfig() // β 0.5
	for _, tc := range []struct {
		warm, step int
		want       float64
	}{{10, 0, 0}, {10, 1, 0.05}, {10, 5, 0.25}, {10, 10, 0.5}, {10, 1000, 0.5}, {0, 0, 0.5}, {0, 3, 0.5}} {
		if got := c.betaAt(tc.step, tc.warm); !near(got, tc.want, 1e-15) {
			t.Errorf("N=%d step %d: β = %v, want %v", tc.warm, tc.step, got, tc.want)
		}
	}
}

// Each relevance source warms β up over its own N: by default span places
// from step 0 (its spans are exact), replay starts as GDPO and reaches β
// at step 10.
func TestBetaWarmupPerSource(t *testing.T) {
	c := DefaultConfig()
	if c.SpanWarmup != 0 || c.ReplayWarmup != 10 {
		t.Fatalf("default warm-ups span %d, replay %d; want 0 and 10", c.SpanWarmup, c.ReplayWarmup)
	}
	ids, offs := toks(4)
	b := &Batch{
		Groups:   []int{0, 0},
		Scores:   [][]float64{{1, 0}},
		Verdicts: [][]reward.Verdict{{{Score: 1, Info: "ref", Spans: []reward.Span{{Start: 2, End: 3}}}, {Info: "ref"}}},
		Prompts:  []string{"p", "p"},
		Tokens:   [][]int32{ids, ids},
		Offsets:  [][][2]int{offs, offs},
		Replay:   hashReplayer(7),
	}
	for _, tc := range []struct {
		method string
		edit   func(*Config)
		step   int
		beta   float64
	}{
		{"span", func(*Config) {}, 0, 0.5},
		{"span", func(c *Config) { c.SpanWarmup = 4 }, 1, 0.125},
		{"mrtpo", func(*Config) {}, 0, 0},
		{"mrtpo", func(*Config) {}, 5, 0.25},
		{"mrtpo", func(c *Config) { c.ReplayWarmup = 0 }, 0, 0.5},
	} {
		c := DefaultConfig()
		tc.edit(&c)
		bb := *b
		bb.Step = tc.step
		adv, met := run(t, tc.method, c, &bb)
		if met["credit/beta"] != tc.beta {
			t.Errorf("%s step %d: credit/beta = %v, want %v", tc.method, tc.step, met["credit/beta"], tc.beta)
		}
		gd, _ := run(t, "gdpo", c, &bb)
		if placed := !slices.Equal(adv.Tokens[0], gd.Tokens[0]); placed != (tc.beta > 0) {
			t.Errorf("%s step %d (β %v): tokens %v, GDPO's %v", tc.method, tc.step, tc.beta, adv.Tokens[0], gd.Tokens[0])
		}
	}
}

// The default cap bounds the reallocation a token receives summed over
// rewards: two rewards concentrating on one token give it no more than
// one reward could, (κ − 1)·max_k |c[k]·A[k,i]|; capping each reward's
// weights separately (Config.Cap "reward") lets it take both.
func TestCapAcrossRewards(t *testing.T) {
	ids, offs := toks(10)
	spans := []reward.Span{{Start: 9, End: 10}}
	b := &Batch{
		Groups: []int{0, 0, 1, 1},
		Scores: [][]float64{{1, 0, 1, 0}, {1, 0, 0, 1}},
		Verdicts: [][]reward.Verdict{
			{{Score: 1, Spans: spans}, {}, {Score: 1}, {}},
			{{Score: 1, Spans: spans}, {}, {}, {Score: 1}},
		},
		Tokens:  [][]int32{ids, ids, ids, ids},
		Offsets: [][][2]int{offs, offs, offs, offs},
	}
	c := DefaultConfig()
	c.Beta, c.Gamma, c.Kappa = 1, 0, 3
	// Response 0: both rewards have A = d > 0 and q on token 9 alone, so
	// each uncapped weight there is 10: the reallocations add up to
	// 2·d·9 = 18d, capped at (κ − 1)·d = 2d.
	d := 0.5 / (math.Sqrt(0.5) + 1e-4)
	g := gdpoResponse(mustView(t, b), c.Eps)
	for _, tc := range []struct {
		cp   CapMode
		want float64 // Δ on token 9 of response 0, in units of d
	}{{CapSum, 2}, {CapReward, 2 * (3 - 1)}} {
		c.Cap = tc.cp
		adv, met := run(t, "span", c, b)
		delta := adv.Tokens[0][9]*g.denom + g.mean - g.s[0]
		if !near(delta, tc.want*d, 1e-9) {
			t.Errorf("cap %s: Δ on the shared token = %v d, want %v d", tc.cp, delta/d, tc.want)
		}
		var mean float64
		for _, x := range adv.Tokens[0] {
			mean += x / 10
		}
		if !near(mean, adv.Response[0], 1e-12) {
			t.Errorf("cap %s: tokens average %v, Â %v", tc.cp, mean, adv.Response[0])
		}
		if _, ok := met["credit/capped"]; ok != (tc.cp == CapSum) {
			t.Errorf("cap %s: credit/capped reported %v", tc.cp, ok)
		} else if ok && met["credit/capped"] != 0.25 {
			t.Errorf("credit/capped = %v, want 1 of 4 responses", met["credit/capped"])
		}
	}
}

// Over random batches the default cap holds on every token:
// |Δ[i,t]| ≤ (κ − 1)·max_k |c[k]·A[k,i]|.
func TestPropertyCapSum(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	for trial := range 300 {
		b := randomBatch(rng, 1+rng.IntN(3))
		b.Step = 20
		c := DefaultConfig()
		c.Beta, c.Kappa = []float64{0.5, 1}[rng.IntN(2)], 1+2*rng.Float64()
		v := mustView(t, b)
		g := gdpoResponse(v, c.Eps)
		for _, name := range []string{"span", "mrtpo"} {
			adv, _ := run(t, name, c, b)
			for i, row := range adv.Tokens {
				var bound float64
				for k := range v.k {
					bound = max(bound, math.Abs(v.c[k]*g.a[k][i]))
				}
				L := (c.Kappa - 1) * bound
				for t2, x := range row {
					if delta := x*g.denom + g.mean - g.s[i]; math.Abs(delta) > L+1e-9*(1+L) {
						t.Fatalf("trial %d %s: response %d token %d reallocation %v over %v", trial, name, i, t2, delta, L)
					}
				}
			}
		}
	}
}

func mustView(t *testing.T, b *Batch) *view {
	t.Helper()
	v, err := newView(b)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
