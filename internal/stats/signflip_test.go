package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// bruteSignFlip counts every sign pattern directly: the definition.
func bruteSignFlip(d []float64) float64 {
	var obs float64
	for _, x := range d {
		obs += x
	}
	hits := 0
	for m := range 1 << len(d) {
		var s float64
		for i, x := range d {
			if m>>i&1 == 1 {
				x = -x
			}
			s += x
		}
		if math.Abs(s) >= math.Abs(obs)-1e-9 {
			hits++
		}
	}
	return float64(hits) / float64(int(1)<<len(d))
}

func TestSignFlipHandCases(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		name   string
		d      []float64
		p, min float64
	}{
		// ±1 ±2 ±3 ∈ {±6, ±4, ±2, 0, 0}: only ±6 reach |6|.
		{"all positive", []float64{1, 2, 3}, 2.0 / 8, 0.25},
		// observed |1 − 2 + 3| = 2: six of the eight patterns reach it.
		{"mixed", []float64{1, -2, 3}, 6.0 / 8, 0.25},
		{"five seeds, all one way", []float64{0.1, 0.2, 0.15, 0.3, 0.05}, 0.0625, 0.0625},
		{"ten seeds, all one way", []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 2.0 / 1024, 2.0 / 1024},
		// zeros flip to themselves: two non-zero differences, min 2^(1−2).
		{"zeros", []float64{0, 0, 1, 1}, 0.5, 0.5},
		{"all zero", []float64{0, 0, 0}, 1, 1},
		{"one", []float64{0.4}, 1, 1},
		{"NaN left out", []float64{1, nan, 2, 3}, 0.25, 0.25},
	} {
		got := SignFlip(c.d, 0, 1)
		if math.Abs(got.P-c.p) > 1e-12 || math.Abs(got.Min-c.min) > 1e-12 || !got.Exact {
			t.Errorf("%s: %+v, want p %v, min %v, exact", c.name, got, c.p, c.min)
		}
	}
	if e := SignFlip(nil, 0, 1); !math.IsNaN(e.P) || e.N != 0 {
		t.Errorf("no differences: %+v", e)
	}
}

// TestSignFlipExact: the meet-in-the-middle count equals direct
// enumeration, on continuous differences and on small integers (many
// ties), for every n up to 14.
func TestSignFlipExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for n := 1; n <= 14; n++ {
		for trial := range 6 {
			d := make([]float64, n)
			for i := range d {
				if trial%2 == 0 {
					d[i] = rng.NormFloat64() + 0.3
				} else {
					d[i] = float64(rng.IntN(5) - 2)
				}
			}
			want, got := bruteSignFlip(d), SignFlip(d, 0, 1)
			if math.Abs(got.P-want) > 1e-12 || !got.Exact || got.N != n {
				t.Errorf("n %d %v: %+v, enumeration %v", n, d, got, want)
			}
		}
	}
}

// TestSignFlipMonteCarlo: past ExactMax units the p-value is estimated
// from the seeded draws, within 4 standard errors of the exact count
// (made here by the same meet-in-the-middle count, still fast at 24), the
// same for the same seed, and never below 1/(1 + draws).
func TestSignFlipMonteCarlo(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, shift := range []float64{0, 0.35, 0.7} {
		d := make([]float64, ExactMax+4)
		var obs, scale float64
		for i := range d {
			d[i] = rng.NormFloat64() + shift
			obs += d[i]
			scale += math.Abs(d[i])
		}
		exact := float64(countAtLeast(d, math.Abs(obs)-1e-9*scale)) / math.Ldexp(1, len(d))
		const draws = 20000
		got := SignFlip(d, draws, 11)
		se := math.Sqrt(max(exact, 1/draws)*(1-exact)/draws) + 1.0/draws
		if got.Exact || got.Draws != draws || math.Abs(got.P-exact) > 4*se || got.P < 1.0/(draws+1) {
			t.Errorf("shift %v: %+v, exact %v (se %.2g)", shift, got, exact, se)
		}
		if again := SignFlip(d, draws, 11); again != got {
			t.Errorf("shift %v: not repeatable: %+v then %+v", shift, got, again)
		}
		if got.Min != 1.0/(draws+1) {
			t.Errorf("shift %v: min %v, want 1/(1 + %d)", shift, got.Min, draws)
		}
		t.Logf("n %d, shift %v: Monte Carlo p %.5f, exact %.5f", len(d), shift, got.P, exact)
	}
	if p := SignFlip(make([]float64, ExactMax+1), 0, 1); p.P != 1 {
		t.Errorf("all-zero differences past ExactMax: %+v", p)
	}
}
