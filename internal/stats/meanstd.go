package stats

import "math"

// MeanStd is the mean of xs and their unbiased sample standard deviation,
// √(Σ(x − mean)² / (n − 1)): NaN, NaN for no values, and std 0 for one (a
// single value does not spread). NaN entries are not left out. It is the
// one mean-and-std of metrics and reports; credit's normalization has its
// own, which gives a group of one std 1 (ALGORITHMS.md).
func MeanStd(xs []float64) (mean, std float64) {
	if len(xs) == 0 {
		return math.NaN(), math.NaN()
	}
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) < 2 {
		return mean, 0
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / float64(len(xs)-1))
}
