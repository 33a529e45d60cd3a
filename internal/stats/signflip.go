package stats

import (
	"math"
	"math/rand/v2"
)

// ExactMax is the most paired units SignFlip enumerates exactly (2^20
// sign patterns, counted in two halves of 2^10: milliseconds); beyond it
// the p-value is a seeded Monte Carlo estimate.
const ExactMax = 20

// MonteCarloDraws is SignFlip's default number of random sign patterns
// beyond ExactMax units: the estimate's standard error at p = 0.05 is
// √(0.05·0.95/100000) = 0.0007.
const MonteCarloDraws = 100_000

// Permutation is a sign-flip permutation test's answer.
type Permutation struct {
	P     float64 // two-sided p-value
	Min   float64 // the smallest p-value attainable with these units
	Exact bool    // every sign pattern was counted (N ≤ ExactMax); else Draws random ones
	Draws int     // random patterns drawn when not exact
	N     int     // paired units (NaN entries left out)
}

// SignFlip is the two-sided sign-flip permutation test of paired
// differences d (H₀: each d_i is symmetric about 0, so its sign is a coin
// flip). With the statistic T(s) = |Σ_i s_i·d_i| over sign patterns
// s ∈ {−1, +1}^n and the observed T₀ = |Σ_i d_i|,
//
//	exact (n ≤ ExactMax):  p = #{s : T(s) ≥ T₀} / 2^n
//	Monte Carlo:           p = (1 + #{b ≤ draws : T(s_b) ≥ T₀}) / (1 + draws),  s_b uniform
//
// (the Monte Carlo form counts the observed pattern, so it is a valid
// p-value whatever the number of draws). Ties are counted with a relative
// tolerance of 1e-9 of Σ|d_i|, so rounding cannot make the observed
// pattern beat itself. The smallest attainable p is 2^(1−n′) with n′ the
// non-zero differences (the observed pattern and its mirror image share the
// largest T), or 1/(1 + draws) if larger: 0.0625 at n = 5, 0.002 at n = 10.
// draws ≤ 0 means MonteCarloDraws; seed makes the draws repeatable. NaN
// entries are left out; no differences give p = NaN.
func SignFlip(d []float64, draws int, seed uint64) Permutation {
	xs := dropNaN(d)
	out := Permutation{P: math.NaN(), Min: math.NaN(), N: len(xs)}
	if len(xs) == 0 {
		return out
	}
	var obs, scale float64
	nonzero := 0
	for _, x := range xs {
		obs += x
		scale += math.Abs(x)
		if x != 0 {
			nonzero++
		}
	}
	out.Min = math.Ldexp(1, 1-nonzero)
	if nonzero == 0 {
		out.P, out.Min, out.Exact = 1, 1, true
		return out
	}
	bar := math.Abs(obs) - 1e-9*scale // T(s) ≥ T₀ up to rounding
	if len(xs) <= ExactMax {
		out.Exact = true
		out.P = math.Min(1, float64(countAtLeast(xs, bar))/math.Ldexp(1, len(xs)))
		return out
	}
	if draws <= 0 {
		draws = MonteCarloDraws
	}
	out.Draws = draws
	out.Min = math.Max(out.Min, 1/float64(draws+1))
	rng := rand.New(rand.NewPCG(seed, 0x5167))
	hits := 0
	for range draws {
		var s float64
		for lo := 0; lo < len(xs); lo += 64 {
			signs := rng.Uint64()
			for i, x := range xs[lo:min(lo+64, len(xs))] {
				if signs>>i&1 == 1 {
					x = -x
				}
				s += x
			}
		}
		if math.Abs(s) >= bar {
			hits++
		}
	}
	out.P = float64(1+hits) / float64(1+draws)
	return out
}

// countAtLeast counts the sign patterns s with |Σ s_i·x_i| ≥ bar (bar > 0)
// by meeting in the middle: the signed sums of each half of x, sorted
// (2^(n/2) each), and for each sum a of the first half the second-half
// sums b with a + b ≥ bar or a + b ≤ −bar (disjoint sets, as bar > 0),
// found by two pointers that only move one way as a grows.
func countAtLeast(x []float64, bar float64) int {
	if bar <= 0 {
		return 1 << len(x)
	}
	h := len(x) / 2
	a, b := sortedSignedSums(x[:h]), sortedSignedSums(x[h:])
	n, up, down := 0, len(b), len(b) // b[up:] ≥ bar − a;  b[:down] ≤ −bar − a
	for _, s := range a {
		for up > 0 && b[up-1] >= bar-s {
			up--
		}
		for down > 0 && b[down-1] > -bar-s {
			down--
		}
		n += len(b) - up + down
	}
	return n
}

// sortedSignedSums is Σ_i s_i·x_i for every sign pattern s, in increasing
// order: the sums of x[:k+1] merge those of x[:k] shifted by −|x_k| and by
// +|x_k|, two sorted lists, so no sort is needed.
func sortedSignedSums(x []float64) []float64 {
	out, next := make([]float64, 1, 1<<len(x)), make([]float64, 0, 1<<len(x))
	for _, v := range x {
		v = math.Abs(v)
		next = next[:0]
		i, j := 0, 0
		for i < len(out) || j < len(out) {
			if j == len(out) || i < len(out) && out[i]-v <= out[j]+v {
				next = append(next, out[i]-v)
				i++
			} else {
				next = append(next, out[j]+v)
				j++
			}
		}
		out, next = next, out
	}
	return out
}

// dropNaN is xs without its NaN entries (a copy).
func dropNaN(xs []float64) []float64 {
	out := make([]float64, 0, len(xs))
	for _, x := range xs {
		if !math.IsNaN(x) {
			out = append(out, x)
		}
	}
	return out
}
