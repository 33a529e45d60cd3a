package place

import (
	"math"
	"sort"
)

// clipSum decides, for ClipShift's bisection, whether
//
//	f(λ) = clip(x[0] + λ) + clip(x[1] + λ) + … + clip(x[n−1] + λ),  clip(y) = min(L, max(−L, y))
//
// summed in floating point in that order, is below target. The bisection
// takes its steps from these answers, so they must be those of that sum
// bit for bit; but only near the root does the rounding decide them. On
// sorted x the clipped entries are a prefix (at −L) and a suffix (at L),
// found by binary search, and the free ones sum to prefix[b] − prefix[a]
// + (b − a)·λ, so
//
//	F = (n − a − b)·L + (prefix[b] − prefix[a]) + (b − a)·λ
//
// is f up to rounding, and |f − F| ≤ E = 2(2n + 9)·u·(nL + Σ|x| + n|λ|),
// u = 2⁻⁵³ (the sequential sum's error γ_n·nL, the prefix sums' 2γ_n·Σ|x|,
// and the few operations of F itself, with a margin of 2). Outside ±E of
// the target the sign of F − target is that of f − target; inside, f is
// summed as ClipShift always summed it.
type clipSum struct {
	x, prefix []float64 // x sorted, prefix[j] = x[0] + … + x[j−1]
	L, target float64
	abs       float64 // Σ|x|
	exact     bool    // an infinite or NaN entry (or L): always sum, as first written
}

// bisect finds λ by bisection on f (continuous and nondecreasing, from −nL
// at lo to nL at hi) and returns it with the entries at each bound there:
// x[:a] clip to −L, x[b:] to L.
//
// The answer depends on λ only through a and b (clipShift solves the free
// entries' shift from them, and when none is free every entry is at a
// bound), and a and b are monotone in λ: once they are the same at lo and
// at hi they are the same wherever the bisection would have ended, and it
// stops there, returning lo. Else it runs until lo and hi are adjacent
// floats (or 200 steps) and returns their midpoint, as it always did.
func (c *clipSum) bisect() (lambda float64, a, b int) {
	x, L, n := c.x, c.L, len(c.x)
	lo, hi := -L-x[n-1], L-x[0]
	aLo, bLo := c.bounds(lo)
	aHi, bHi := c.bounds(hi)
	for range 200 {
		if aLo == aHi && bLo == bHi && !c.exact {
			return lo, aLo, bLo
		}
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if a, b, below := c.below(mid); below {
			lo, aLo, bLo = mid, a, b
		} else {
			hi, aHi, bHi = mid, a, b
		}
	}
	lambda = lo + (hi-lo)/2
	a = 0
	for a < n && x[a]+lambda <= -L {
		a++
	}
	b = n
	for b > a && x[b-1]+lambda >= L {
		b--
	}
	return lambda, a, b
}

// bounds are the entries at each bound at λ: x[:a] clip to −L (x + λ ≤
// −L), x[b:] to L (x + λ ≥ L), found by binary search on the sorted x.
func (c *clipSum) bounds(lambda float64) (a, b int) {
	L := c.L
	a = sort.Search(len(c.x), func(i int) bool { return c.x[i]+lambda > -L })
	b = a + sort.Search(len(c.x)-a, func(i int) bool { return c.x[a+i]+lambda >= L })
	return a, b
}

// below reports whether f(λ) < target, as the sequential sum says, with
// bounds(λ).
func (c *clipSum) below(lambda float64) (a, b int, below bool) {
	x, L, n := c.x, c.L, len(c.x)
	a, b = c.bounds(lambda)
	if c.exact {
		var s float64
		for _, v := range x {
			s += min(L, max(-L, v+lambda))
		}
		return a, b, s < c.target
	}
	nf := float64(n)
	F := float64(n-a-b)*L + (c.prefix[b] - c.prefix[a]) + float64(b-a)*lambda
	E := 2 * (2*nf + 9) * 0x1p-53 * (nf*L + c.abs + nf*math.Abs(lambda))
	switch d := F - c.target; {
	case d > E:
		return a, b, false
	case d < -E:
		return a, b, true
	}
	// The sum itself, its terms as min(L, max(−L, x + λ)) gives them: −L
	// below a, x + λ between, L from b on.
	var s float64
	for range a {
		s += -L
	}
	for _, v := range x[a:b] {
		s += v + lambda
	}
	for range n - b {
		s += L
	}
	return a, b, s < c.target
}

// finite is false for NaN and ±Inf.
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
