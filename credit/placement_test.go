package credit

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/credo-rl/credo/reward"
)

func TestPlacementTable(t *testing.T) {
	cases := []struct {
		name        string
		q           []float64
		beta, kappa float64
		want        []float64
	}{
		// No mass: uniform.
		{"zero", []float64{0, 0, 0}, 0.5, 4, []float64{1, 1, 1}},
		// mean q = 2: w = 0.5 + 0.5·q/2 = [2.25, 0.75, 0.5, 0.5], under κ = 4.
		{"plain", []float64{7, 1, 0, 0}, 0.5, 4, []float64{2.25, 0.75, 0.5, 0.5}},
		// κ = 2 caps 2.25; the free weights (sum 1.75) must hold 4 − 2 = 2:
		// × 8/7 → [2, 6/7, 4/7, 4/7].
		{"cap", []float64{7, 1, 0, 0}, 0.5, 2, []float64{2, 6.0 / 7, 4.0 / 7, 4.0 / 7}},
		// β = 1, mean 5: w = [2, 1.6, 0.2, 0.2]; κ = 1.7 caps 2; free 2.0 must
		// hold 2.3: × 1.15 → [1.84, 0.23, 0.23]; 1.84 > 1.7 is capped too;
		// free 0.46 must hold 0.6 → [0.3, 0.3]. Two rounds of water-filling.
		{"two rounds", []float64{10, 8, 1, 1}, 1, 1.7, []float64{1.7, 1.7, 0.3, 0.3}},
		// β = 1, w = [4, 0, 0, 0]; κ = 2: the free weights are all 0, so the
		// remaining 2 is shared evenly: [2, 2/3, 2/3, 2/3].
		{"free zero", []float64{8, 0, 0, 0}, 1, 2, []float64{2, 2.0 / 3, 2.0 / 3, 2.0 / 3}},
		// κ = 1 forces every weight to 1.
		{"kappa one", []float64{3, 1}, 0.5, 1, []float64{1, 1}},
		// β = 0: exactly 1.
		{"beta zero", []float64{9, 0, 1}, 0, 4, []float64{1, 1, 1}},
	}
	var p placer
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := p.weights(tc.q, tc.beta, tc.kappa)
			assertRow(t, "w", got, tc.want, 1e-12)
		})
	}
}

// Weights average to one, are at least 1 − β before the cap and at most κ
// after it, over seeded random relevance.
func TestPlacementProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var p placer
	for trial := range 2000 {
		n := 1 + rng.IntN(40)
		q := make([]float64, n)
		for t := range q {
			switch rng.IntN(3) {
			case 0: // zero
			case 1:
				q[t] = rng.Float64()
			default:
				q[t] = math.Exp(6 * rng.Float64()) // heavy tail: caps bite
			}
		}
		beta := []float64{0, 0.25, 0.5, 1}[rng.IntN(4)]
		kappa := 1 + 5*rng.Float64()
		// Before the cap (κ = ∞).
		raw := slices.Clone(p.weights(q, beta, math.MaxFloat64))
		var sum float64
		for _, w := range raw {
			sum += w
			if w < 1-beta {
				t.Fatalf("trial %d: uncapped weight %v < 1 − β = %v", trial, w, 1-beta)
			}
		}
		if !near(sum/float64(n), 1, 1e-12) {
			t.Fatalf("trial %d: uncapped mean %v", trial, sum/float64(n))
		}
		capped := p.weights(q, beta, kappa)
		sum = 0
		for t2, w := range capped {
			sum += w
			if w > kappa*(1+1e-12) {
				t.Fatalf("trial %d: weight %v above κ = %v", trial, w, kappa)
			}
			if raw[t2] <= kappa && w < raw[t2]*(1-1e-12) {
				t.Fatalf("trial %d: capping lowered an uncapped weight %v → %v", trial, raw[t2], w)
			}
		}
		if !near(sum/float64(n), 1, 1e-12) {
			t.Fatalf("trial %d: capped mean %v (κ %v, weights %v)", trial, sum/float64(n), kappa, capped)
		}
	}
}

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
