package stats

import (
	"math"
	"testing"
)

func TestMeanAndAUC(t *testing.T) {
	if got := Mean([]float64{1, math.NaN(), 3}); got != 2 {
		t.Fatalf("Mean = %v, want 2 (NaN left out)", got)
	}
	if !math.IsNaN(Mean(nil)) {
		t.Fatal("Mean of nothing must be NaN")
	}
	early, late := []float64{0, 1, 1, 1}, []float64{0, 0, 0, 1}
	if AUC(early) <= AUC(late) {
		t.Fatalf("a curve that rises earlier must have the larger AUC: %v vs %v", AUC(early), AUC(late))
	}
}

func TestMedian(t *testing.T) {
	inf := math.Inf(1)
	for _, c := range []struct {
		xs   []float64
		want float64
	}{
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 2, 3}, 2.5},
		{[]float64{1, inf, inf}, inf},
		{[]float64{1, 2, inf, inf}, inf},
		{[]float64{1, 2, 3, inf}, 2.5},
	} {
		if got := Median(c.xs); got != c.want {
			t.Errorf("Median(%v) = %v, want %v", c.xs, got, c.want)
		}
	}
}

func TestBootstrap(t *testing.T) {
	// A clear positive effect: the interval excludes 0.
	pos := Bootstrap([]float64{0.10, 0.12, 0.08, 0.11, 0.09}, 4000, 1)
	if !pos.Excludes0() || pos.Lo <= 0 || pos.Mean < pos.Lo || pos.Mean > pos.Hi {
		t.Fatalf("clear effect: %+v", pos)
	}
	// Noise around 0: it does not.
	noise := Bootstrap([]float64{0.1, -0.12, 0.05, -0.07, 0.02}, 4000, 1)
	if noise.Excludes0() {
		t.Fatalf("noise around 0 excluded 0: %+v", noise)
	}
	// The same seed gives the same interval; one observation gives none.
	if again := Bootstrap([]float64{0.10, 0.12, 0.08, 0.11, 0.09}, 4000, 1); again != pos {
		t.Fatalf("not deterministic: %+v vs %+v", again, pos)
	}
	if one := Bootstrap([]float64{0.3}, 4000, 1); !math.IsNaN(one.Lo) || one.Excludes0() {
		t.Fatalf("one seed: %+v", one)
	}
	// The interval of a constant shift is the constant.
	c := Bootstrap([]float64{0.5, 0.5, 0.5}, 100, 2)
	if c.Lo != 0.5 || c.Hi != 0.5 {
		t.Fatalf("constant: %+v", c)
	}
}
