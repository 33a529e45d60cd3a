package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestTIntervalHand: 1..5 has mean 3 and s = √2.5; t_{0.975,4} =
// 2.7764451051977943 (mpmath), so the half-width is t·s/√5 = 1.9632431614775577,
// and t = 3/(s/√5) = 4.2426 has two-sided p = 0.0132355995636827.
func TestTIntervalHand(t *testing.T) {
	d := []float64{1, 2, 3, 4, 5}
	iv := TInterval(d, 0.95)
	const half = 1.9632431614775577
	if iv.N != 5 || iv.Mean != 3 || math.Abs(iv.Lo-(3-half)) > 1e-12 || math.Abs(iv.Hi-(3+half)) > 1e-12 {
		t.Errorf("TInterval(1..5) = %+v, want 3 ± %v", iv, half)
	}
	if p := TTest(d); math.Abs(p-0.0132355995636827) > 1e-13 {
		t.Errorf("TTest(1..5) = %.16g, want 0.0132355995636827", p)
	}
	for _, c := range []struct {
		name string
		d    []float64
		p    float64
		lo   float64
	}{
		{"constant", []float64{0.25, 0.25, 0.25}, 0, 0.25},
		{"all zero", []float64{0, 0}, 1, 0},
	} {
		iv, p := TInterval(c.d, 0.95), TTest(c.d)
		if p != c.p || iv.Lo != c.lo || iv.Hi != c.lo {
			t.Errorf("%s: %+v p %v", c.name, iv, p)
		}
	}
	for _, d := range [][]float64{nil, {0.3}, {math.NaN(), 0.3}} {
		if iv, p := TInterval(d, 0.95), TTest(d); !math.IsNaN(iv.Lo) || !math.IsNaN(p) || iv.Excludes0() {
			t.Errorf("%v: %+v p %v: fewer than two units give no interval", d, iv, p)
		}
	}
	if iv := TInterval(d, 1.2); !math.IsNaN(iv.Lo) {
		t.Errorf("level 1.2: %+v", iv)
	}
}

// TestTIntervalMatchesTTest: the interval at level excludes 0 exactly when
// the t-test's p < 1 − level, so marking by either is one procedure.
func TestTIntervalMatchesTTest(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	agree := 0
	for trial := range 3000 {
		n := 2 + trial%14
		d := make([]float64, n)
		for i := range d {
			d[i] = rng.NormFloat64() + 0.4
		}
		for _, level := range []float64{0.9, 0.95, 0.99} {
			iv, p := TInterval(d, level), TTest(d)
			if iv.Excludes0() != (p < 1-level) {
				t.Fatalf("%v at %v: %+v but p %v", d, level, iv, p)
			}
			if iv.Excludes0() {
				agree++
			}
		}
	}
	if agree < 1000 {
		t.Fatalf("only %d intervals excluded 0: the check says little", agree)
	}
}

func TestCompare(t *testing.T) {
	nan := math.NaN()
	runs := [][]float64{{1, 2, 3}, {-1, 0}, {4, nan}, {nan}}
	for _, c := range []struct {
		unit    Unit
		n       int
		mean    float64
		units   []float64
		warmups int
	}{
		{UnitWarmup, 3, (2 - 0.5 + 4) / 3.0, []float64{2, -0.5, 4}, 3},
		{UnitRun, 6, 9 / 6.0, []float64{1, 2, 3, -1, 0, 4}, 3},
	} {
		p, err := Compare(runs, c.unit, Options{})
		if err != nil {
			t.Fatal(err)
		}
		iv := TInterval(c.units, 0.95)
		_, spread := MeanStd([]float64{2, -0.5, 4})
		if p.Unit != c.unit || p.N != c.n || math.Abs(p.Mean-c.mean) > 1e-12 || p.Lo != iv.Lo || p.Hi != iv.Hi ||
			p.PT != TTest(c.units) || p.Sign != SignFlip(c.units, 0, 0) || p.Level != 0.95 {
			t.Errorf("%s: %+v, want n %d mean %v interval %+v", c.unit, p, c.n, c.mean, iv)
		}
		if p.Warmups != c.warmups || p.Runs != 6 || math.Abs(p.WarmupSpread-spread) > 1e-12 || p.SignAgrees ||
			!slices.Equal(p.WarmupMeans, []float64{2, -0.5, 4}) {
			t.Errorf("%s: warm-ups %+v", c.unit, p)
		}
	}
	agree, err := Compare([][]float64{{0.1, 0.2}, {0.05}, {0.3, 0.1, 0.2}}, UnitWarmup, Options{Level: 0.9})
	if err != nil || !agree.SignAgrees || agree.Level != 0.9 || agree.Sign.Min != 0.25 {
		t.Errorf("same sign on every warm-up: %+v, %v", agree, err)
	}
	one, err := Compare([][]float64{{0.1, 0.2, 0.3}}, UnitRun, Options{})
	if err != nil || one.Warmups != 1 || !math.IsNaN(one.WarmupSpread) || !one.SignAgrees || one.N != 3 {
		t.Errorf("one warm-up: %+v, %v", one, err)
	}
	if none, err := Compare(nil, UnitWarmup, Options{}); err != nil || none.N != 0 || !math.IsNaN(none.Mean) || none.SignAgrees || none.Excludes0() {
		t.Errorf("no runs: %+v, %v", none, err)
	}
}

func TestCompareBadInput(t *testing.T) {
	for _, c := range []struct {
		unit Unit
		o    Options
		want string
	}{
		{"seed", Options{}, `unit "seed"`},
		{UnitRun, Options{Level: 1.5}, "level"},
		{UnitRun, Options{Level: -0.1}, "level"},
		{UnitRun, Options{Level: math.NaN()}, "level"},
		{UnitRun, Options{Draws: -1}, "draws"},
	} {
		if _, err := Compare([][]float64{{1, 2}}, c.unit, c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q %+v: error %v, want one naming %s", c.unit, c.o, err, c.want)
		}
	}
}
