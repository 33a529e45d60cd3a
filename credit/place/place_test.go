package place

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/credo-rl/credo/internal/reftest"
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
	var p Placer
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := p.Weights(tc.q, tc.beta, tc.kappa)
			reftest.Row(t, "w", got, tc.want, 1e-12)
		})
	}
}

// Weights average to one, are at least 1 − β before the cap and at most κ
// after it, over seeded random relevance.
func TestPlacementProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var p Placer
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
		raw := slices.Clone(p.Weights(q, beta, math.MaxFloat64))
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
		capped := p.Weights(q, beta, kappa)
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
			var p Placer
			d := slices.Clone(tc.d)
			p.ClipShift(d, tc.L)
			reftest.Row(t, "d'", d, tc.want, 1e-12)
		})
	}
}

// clipShift is the Euclidean projection onto {Σ d' = Σ d, |d'| ≤ L}: the
// bounds hold, the sum is kept, and one shift λ explains every entry (free
// entries are d + λ, entries at L have d + λ ≥ L, at −L have d + λ ≤ −L),
// which characterizes the projection. It depends on the multiset only.
func TestClipShiftProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	var p Placer
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
		p.ClipShift(got, L)
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
		p.ClipShift(shuffled, L)
		for j, k := range perm {
			if shuffled[j] != got[k] {
				t.Fatalf("trial %d: a permutation changed d'", trial)
			}
		}
	}
}

func TestConcentration(t *testing.T) {
	for _, tc := range []struct {
		q    []float64
		want float64
	}{
		{[]float64{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, 0.8}, // 8 of 10 hold 80% exactly
		{[]float64{1, 1, 1}, 1},                        // 0.8·3 = 2.4 needs 3 tokens
		{[]float64{1, 1, 1, 1, 1}, 0.8},                // 4 of 5
		{[]float64{8, 1, 1, 0}, 0.25},                  // 8 of 10 in one token
		{[]float64{0, 5, 0, 0}, 0.25},
		{[]float64{3, 3, 2, 2}, 0.75}, // 3+3 = 6 < 8, +2 = 8
		{[]float64{0, 0}, 0},          // no mass: undefined
		{nil, 0},
	} {
		if got, _ := Concentration(tc.q, nil); !near(got, tc.want, 1e-15) {
			t.Errorf("Concentration(%v) = %v, want %v", tc.q, got, tc.want)
		}
	}
}

func TestLocalization(t *testing.T) {
	for _, tc := range []struct {
		q, strength []float64
		want        float64
		ok          bool
	}{
		// The checked token holds 3/6 of q and is 1/4 of the tokens: 2.
		{[]float64{3, 1, 1, 1}, []float64{1, 0, 0, 0}, 2, true},
		// Uniform relevance: 1.
		{[]float64{1, 1, 1, 1}, []float64{0, 2, 2, 0}, 1, true},
		// q avoids the checked tokens: 0.
		{[]float64{0, 1, 1, 0}, []float64{1, 0, 0, 0.5}, 0, true},
		{[]float64{1, 1}, []float64{0, 0}, 0, false}, // nothing checked
		{[]float64{1, 1}, []float64{1, 1}, 0, false}, // everything checked
		{[]float64{0, 0}, []float64{1, 0}, 0, false}, // no mass
	} {
		got, ok := Localization(tc.q, tc.strength)
		if ok != tc.ok || !near(got, tc.want, 1e-15) {
			t.Errorf("Localization(%v, %v) = %v, %v; want %v, %v", tc.q, tc.strength, got, ok, tc.want, tc.ok)
		}
	}
}

func near(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol || (math.IsNaN(a) && math.IsNaN(b))
}
