package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestHolm(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		name     string
		ps       []float64
		alpha    float64
		reject   []bool
		adjusted []float64
	}{
		// sorted 0.005·4 = 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06, max(0.06, 0.04·1): the third stops.
		{"step down", []float64{0.01, 0.04, 0.03, 0.005}, 0.05,
			[]bool{true, false, false, true}, []float64{0.03, 0.06, 0.06, 0.02}},
		// m = 2: a NaN is not a comparison made.
		{"NaN", []float64{nan, 0.01, 0.02}, 0.05,
			[]bool{false, true, true}, []float64{nan, 0.02, 0.02}},
		{"capped at 1", []float64{0.5, 0.6}, 0.05, []bool{false, false}, []float64{1, 1}},
		{"one", []float64{0.04}, 0.05, []bool{true}, []float64{0.04}},
		// equal to the bound is rejected: 0.025·2 = 0.05.
		{"at the bound", []float64{0.025, 0.05}, 0.05, []bool{true, true}, []float64{0.05, 0.05}},
		{"none", nil, 0.05, []bool{}, []float64{}},
	} {
		rej, adj := Holm(c.ps, c.alpha)
		same := slices.EqualFunc(adj, c.adjusted, func(a, b float64) bool {
			return math.Abs(a-b) < 1e-12 || math.IsNaN(a) && math.IsNaN(b)
		})
		if !slices.Equal(rej, c.reject) || !same {
			t.Errorf("%s: reject %v adjusted %v, want %v %v", c.name, rej, adj, c.reject, c.adjusted)
		}
	}
}

// TestHolmProperties: Holm rejects everything Bonferroni (p ≤ α/m)
// rejects and nothing Holm's own thresholds do not, its adjusted p-values
// keep the order of the p-values, and rejection is p̃ ≤ α.
func TestHolmProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 200 {
		m := 1 + rng.IntN(30)
		ps := make([]float64, m)
		for i := range ps {
			ps[i] = math.Pow(rng.Float64(), 3) // many small ones
		}
		rej, adj := Holm(ps, 0.05)
		for i := range ps {
			if ps[i] <= 0.05/float64(m) && !rej[i] {
				t.Fatalf("trial %d: p %v ≤ α/m not rejected", trial, ps[i])
			}
			if rej[i] != (adj[i] <= 0.05) || adj[i] < ps[i] {
				t.Fatalf("trial %d: p %v adjusted %v rejected %v", trial, ps[i], adj[i], rej[i])
			}
			for j := range ps {
				if ps[i] < ps[j] && adj[i] > adj[j] {
					t.Fatalf("trial %d: p %v < %v but adjusted %v > %v", trial, ps[i], ps[j], adj[i], adj[j])
				}
			}
		}
	}
}
