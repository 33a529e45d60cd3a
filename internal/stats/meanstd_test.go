package stats

import (
	"math"
	"testing"
)

func TestMeanStd(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		xs        []float64
		mean, std float64
	}{
		{nil, nan, nan},
		{[]float64{3}, 3, 0},
		{[]float64{1, 3}, 2, math.Sqrt2},
		{[]float64{2, 4, 4, 4, 5, 5, 7, 9}, 5, math.Sqrt(32.0 / 7)},
		{[]float64{1, nan}, nan, nan},
	} {
		m, s := MeanStd(tc.xs)
		same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) || math.Abs(a-b) < 1e-12 }
		if !same(m, tc.mean) || !same(s, tc.std) {
			t.Errorf("MeanStd(%v) = %v, %v; want %v, %v", tc.xs, m, s, tc.mean, tc.std)
		}
	}
}
