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
		// Signed relevance (a quote against the advantage): mean q = −0.25,
		// mean |q| = 0.25, w = 1 + 0.5·(q + 0.25)/0.25.
		{"signed", []float64{-1, 0, 0, 0}, 0.5, 4, []float64{-0.5, 1.5, 1.5, 1.5}},
		{"signed beta zero", []float64{-1, 0, 3}, 0, 4, []float64{1, 1, 1}},
		// κ = 2 bounds w − 1 to [−1, 1]: −1.5 is raised to −1 and the others
		// give 1/6 each: w = [0, 4/3, 4/3, 4/3].
		{"signed cap", []float64{-1, 0, 0, 0}, 0.5, 2, []float64{0, 4.0 / 3, 4.0 / 3, 4.0 / 3}},
		// Mixed signs: mean q = 0, mean |q| = 1: w = 1 + q/2.
		{"mixed", []float64{2, -2, 0, 0}, 0.5, 4, []float64{2, 0, 1, 1}},
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

func TestClipShiftTable(t *testing.T) {
	for _, tc := range []struct {
		name string
		d    []float64
		L    float64
		want []float64
	}{
		// Within the bound: unchanged (λ = 0).
		{"inside", []float64{1, -0.5, -0.5}, 1, []float64{1, -0.5, -0.5}},
		// 3 is cut to 2; the lost 1 is shared by the other three: +1/3 each.
		{"one over", []float64{3, -1, -1, -1}, 2, []float64{2, -2.0 / 3, -2.0 / 3, -2.0 / 3}},
		// −3 is raised to −2; the others give 1/3 each.
		{"one under", []float64{-3, 1, 1, 1}, 2, []float64{-2, 2.0 / 3, 2.0 / 3, 2.0 / 3}},
		// 5 and −5 cut to ±1; the middle ones keep their sum 0: λ = 0.
		{"both sides", []float64{5, -5, 0.5, -0.5}, 1, []float64{1, -1, 0.5, -0.5}},
		// Cutting 6 to 2 frees 4: λ = 4/3 would lift 1.5 past 2, so it is
		// fixed at 2 too, and any λ in [0.5, 1.5] puts −3.5 and −4 at −2:
		// every entry at a bound, sum 0.
		{"cascade", []float64{6, 1.5, -3.5, -4}, 2, []float64{2, 2, -2, -2}},
		// L = 0: only the constant row of the same sum fits.
		{"zero bound", []float64{1, -1}, 0, []float64{0, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var p placer
			d := slices.Clone(tc.d)
			p.clipShift(d, tc.L)
			assertRow(t, "d'", d, tc.want, 1e-12)
		})
	}
}

// clipShift is the Euclidean projection onto {Σ d' = Σ d, |d'| ≤ L}: the
// bounds hold, the sum is kept, and one shift λ explains every entry (free
// entries are d + λ, entries at L have d + λ ≥ L, at −L have d + λ ≤ −L),
// which characterizes the projection. It depends on the multiset only.
func TestClipShiftProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	var p placer
	for trial := range 3000 {
		n := 1 + rng.IntN(30)
		d := make([]float64, n)
		var sum float64
		for j := range d {
			d[j] = rng.NormFloat64() * math.Exp(2*rng.Float64())
			sum += d[j]
		}
		mean := sum / float64(n)
		for j := range d {
			d[j] -= mean // Σ d = 0, as for placed weights
		}
		L := rng.ExpFloat64()
		got := slices.Clone(d)
		p.clipShift(got, L)
		var before, after float64
		for j := range d {
			before += d[j]
			after += got[j]
			if math.Abs(got[j]) > L*(1+1e-12) {
				t.Fatalf("trial %d: |d'[%d]| = %v > L = %v", trial, j, got[j], L)
			}
		}
		if math.Abs(after-before) > 1e-9*(1+L*float64(n)) {
			t.Fatalf("trial %d: sum %v → %v", trial, before, after)
		}
		lambda, have := 0.0, false
		for j := range d {
			if math.Abs(got[j]) < L*(1-1e-9) {
				l := got[j] - d[j]
				if have && math.Abs(l-lambda) > 1e-9*(1+math.Abs(lambda)) {
					t.Fatalf("trial %d: free entries shifted by %v and %v", trial, lambda, l)
				}
				lambda, have = l, true
			}
		}
		if have {
			for j := range d {
				switch {
				case got[j] >= L*(1-1e-9) && d[j]+lambda < L-1e-9*(1+L):
					t.Fatalf("trial %d: entry %d at L but d + λ = %v", trial, j, d[j]+lambda)
				case got[j] <= -L*(1-1e-9) && d[j]+lambda > -L+1e-9*(1+L):
					t.Fatalf("trial %d: entry %d at −L but d + λ = %v", trial, j, d[j]+lambda)
				}
			}
		}
		perm := rng.Perm(n)
		shuffled := make([]float64, n)
		for j, k := range perm {
			shuffled[j] = d[k]
		}
		p.clipShift(shuffled, L)
		for j, k := range perm {
			if shuffled[j] != got[k] {
				t.Fatalf("trial %d: a permutation changed d'", trial)
			}
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
