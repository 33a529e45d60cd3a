package stats

import (
	"math"
	"math/rand/v2"
	"slices"
)

// Mean is the arithmetic mean of xs, NaN when xs is empty. NaN entries
// (steps a run did not log) are left out.
func Mean(xs []float64) float64 {
	sum, n := 0.0, 0
	for _, x := range xs {
		if !math.IsNaN(x) {
			sum += x
			n++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return sum / float64(n)
}

// AUC is the area under a learning curve per step: the mean of the curve
// over its steps (NaN steps left out), so curves of different lengths
// compare on one scale and a method that learns earlier scores higher.
func AUC(curve []float64) float64 { return Mean(curve) }

// Interval is a confidence interval for a mean.
type Interval struct {
	Mean, Lo, Hi float64
	N            int // paired observations
}

// Excludes0 says whether the interval lies entirely on one side of 0.
func (iv Interval) Excludes0() bool { return iv.N > 1 && (iv.Lo > 0 || iv.Hi < 0) }

// Bootstrap is the percentile bootstrap 95% interval of the mean of xs
// (paired differences, one per seed), from iters resamples drawn with
// seed. Fewer than two observations give an interval of NaNs around the
// mean: one seed says nothing about spread.
func Bootstrap(xs []float64, iters int, seed uint64) Interval {
	var clean []float64
	for _, x := range xs {
		if !math.IsNaN(x) {
			clean = append(clean, x)
		}
	}
	iv := Interval{Mean: Mean(clean), Lo: math.NaN(), Hi: math.NaN(), N: len(clean)}
	if len(clean) < 2 || iters < 1 {
		return iv
	}
	rng := rand.New(rand.NewPCG(seed, 0xb007))
	means := make([]float64, iters)
	for b := range means {
		sum := 0.0
		for range clean {
			sum += clean[rng.IntN(len(clean))]
		}
		means[b] = sum / float64(len(clean))
	}
	slices.Sort(means)
	iv.Lo, iv.Hi = quantile(means, 0.025), quantile(means, 0.975)
	return iv
}

// quantile of sorted xs by linear interpolation (R's type 7).
func quantile(sorted []float64, p float64) float64 {
	h := p * float64(len(sorted)-1)
	lo := int(math.Floor(h))
	if lo+1 >= len(sorted) {
		return sorted[len(sorted)-1]
	}
	return sorted[lo] + (h-float64(lo))*(sorted[lo+1]-sorted[lo])
}

// Median of xs (NaN left out; +Inf allowed), NaN when empty.
func Median(xs []float64) float64 {
	var c []float64
	for _, x := range xs {
		if !math.IsNaN(x) {
			c = append(c, x)
		}
	}
	if len(c) == 0 {
		return math.NaN()
	}
	slices.Sort(c)
	if len(c)%2 == 1 {
		return c[len(c)/2]
	}
	a, b := c[len(c)/2-1], c[len(c)/2]
	if math.IsInf(a, 1) || math.IsInf(b, 1) {
		return math.Inf(1)
	}
	return (a + b) / 2
}
