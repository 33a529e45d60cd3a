package stats

import (
	"fmt"
	"math"
)

// TInterval is the Student-t confidence interval at level (0.95 for 95%)
// of the mean of paired differences d, one per paired unit:
//
//	mean ± t_{1−α/2, n−1} · s/√n,   α = 1 − level
//
// with s the unbiased sample standard deviation (MeanStd). It is exact for
// normal differences and, by the central limit theorem, close for others.
// NaN entries are left out; fewer than two differences give NaN bounds
// (one unit says nothing about spread), and an invalid level gives NaN
// bounds too.
func TInterval(d []float64, level float64) Interval {
	xs := dropNaN(d)
	mean, s := MeanStd(xs)
	iv := Interval{Mean: mean, Lo: math.NaN(), Hi: math.NaN(), N: len(xs)}
	if len(xs) < 2 || !(level > 0 && level < 1) {
		return iv
	}
	half := TQuantile(1-(1-level)/2, float64(len(xs)-1)) * s / math.Sqrt(float64(len(xs)))
	iv.Lo, iv.Hi = mean-half, mean+half
	return iv
}

// TTest is the two-sided p-value of the paired t-test of mean 0, the test
// TInterval inverts (its interval at level excludes 0 exactly when
// p < 1 − level):
//
//	t = mean / (s/√n),   p = 2·P(T_{n−1} > |t|)
//
// NaN entries are left out; fewer than two differences give NaN. When
// every difference is the same, s = 0: p = 0 for a non-zero mean, 1 for
// zero.
func TTest(d []float64) float64 {
	xs := dropNaN(d)
	if len(xs) < 2 {
		return math.NaN()
	}
	mean, s := MeanStd(xs)
	if s == 0 {
		if mean == 0 {
			return 1
		}
		return 0
	}
	t := mean / (s / math.Sqrt(float64(len(xs))))
	return math.Min(1, 2*tUpper(math.Abs(t), float64(len(xs)-1)))
}

// Unit is what one paired observation of a comparison is.
type Unit string

const (
	// UnitWarmup takes each warm-up's mean difference over its RL seeds as
	// one unit: n = the number of warm-ups. Valid when warm-ups move the
	// effect (its between-warm-up variance is in every unit), at the price
	// of few units.
	UnitWarmup Unit = "warm-up"
	// UnitRun takes each (warm-up, seed) pair as one unit: n = the number
	// of runs. Valid only when the warm-ups do not move the effect: runs
	// of one warm-up share its draw, and treating them as independent
	// makes the interval too narrow (TestNullMarkedRate measures by how
	// much).
	UnitRun Unit = "run"
)

// Options of a paired comparison; the zero value is 95%, MonteCarloDraws
// and seed 0.
type Options struct {
	Level float64 // of the interval; 0 means 0.95
	Draws int     // sign-flip draws beyond ExactMax units; 0 means MonteCarloDraws
	Seed  uint64  // of those draws
}

// Paired is the summary of a paired comparison of two methods over
// warm-ups × RL seeds: the interval, both p-values and the warm-up
// diagnostics a table prints beside them.
type Paired struct {
	Unit   Unit    // what one of the N units is
	N      int     // paired units of the interval and the p-values
	Mean   float64 // mean difference over the units
	Lo, Hi float64 // TInterval at Level over the units
	Level  float64
	PT     float64     // TTest over the units: the p-value a table corrects (Holm) and marks by
	Sign   Permutation // SignFlip over the units, beside it

	Warmups     int       // warm-ups with at least one run
	Runs        int       // runs over all warm-ups
	WarmupMeans []float64 // each warm-up's mean difference over its seeds
	// WarmupSpread is the standard deviation of WarmupMeans (NaN with
	// fewer than two warm-ups): how far the effect moves between warm-ups.
	WarmupSpread float64
	// SignAgrees says every warm-up's mean difference has the sign of Mean
	// (false when Mean or any warm-up's mean is 0 or NaN).
	SignAgrees bool
}

// Excludes0 says whether the interval lies entirely on one side of 0
// (before any correction for the number of comparisons).
func (p Paired) Excludes0() bool { return p.N > 1 && (p.Lo > 0 || p.Hi < 0) }

// Compare summarizes paired differences grouped by warm-up: runs[w] are
// warm-up w's differences (method minus baseline), one per RL seed. With
// UnitWarmup the units are the warm-ups' means,
//
//	d̄_w = mean_s d[w][s],   N = W,   Mean = mean_w d̄_w
//
// (each warm-up weighs the same, however many seeds it has); with UnitRun
// they are the runs themselves, N = Σ_w n_w. The interval is TInterval,
// PT TTest and Sign SignFlip, all over those units; WarmupSpread is
// std_w d̄_w and SignAgrees whether sign(d̄_w) = sign(Mean) for every w.
// NaN entries (runs that did not finish) are left out, and a warm-up
// without runs with them. An unknown unit, a level outside (0, 1) or
// negative draws are errors.
func Compare(runs [][]float64, unit Unit, o Options) (Paired, error) {
	if o.Level == 0 {
		o.Level = 0.95
	}
	if !(o.Level > 0 && o.Level < 1) {
		return Paired{}, fmt.Errorf("paired comparison: level must be in (0, 1), got %v", o.Level)
	}
	if o.Draws < 0 {
		return Paired{}, fmt.Errorf("paired comparison: draws must be ≥ 0 (0: %d), got %d", MonteCarloDraws, o.Draws)
	}
	p := Paired{Unit: unit, Level: o.Level, WarmupSpread: math.NaN()}
	var all []float64
	for _, r := range runs {
		xs := dropNaN(r)
		if len(xs) == 0 {
			continue
		}
		all = append(all, xs...)
		p.WarmupMeans = append(p.WarmupMeans, Mean(xs))
	}
	p.Warmups, p.Runs = len(p.WarmupMeans), len(all)
	if p.Warmups > 1 {
		_, p.WarmupSpread = MeanStd(p.WarmupMeans)
	}
	var units []float64
	switch unit {
	case UnitWarmup:
		units = p.WarmupMeans
	case UnitRun:
		units = all
	default:
		return Paired{}, fmt.Errorf("paired comparison: unit %q is not %q or %q", unit, UnitWarmup, UnitRun)
	}
	iv := TInterval(units, o.Level)
	p.N, p.Mean, p.Lo, p.Hi = iv.N, iv.Mean, iv.Lo, iv.Hi
	p.PT = TTest(units)
	p.Sign = SignFlip(units, o.Draws, o.Seed)
	p.SignAgrees = p.Warmups > 0 && p.Mean != 0 && !math.IsNaN(p.Mean)
	for _, m := range p.WarmupMeans {
		if !(m*p.Mean > 0) {
			p.SignAgrees = false
		}
	}
	return p, nil
}
