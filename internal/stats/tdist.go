package stats

import "math"

// TCDF is Student's t distribution function with df degrees of freedom
// (df > 0, not necessarily whole), P(T ≤ t), from the regularized
// incomplete beta function:
//
//	P(T > |t|) = ½ · I_x(df/2, ½),  x = df / (df + t²)
//
// NaN for NaN input or df ≤ 0; ±Inf give 1 and 0.
func TCDF(t, df float64) float64 {
	if math.IsNaN(t) || math.IsNaN(df) || df <= 0 {
		return math.NaN()
	}
	tail := tUpper(math.Abs(t), df)
	if t < 0 {
		return tail
	}
	return 1 - tail
}

// tUpper is P(T > t) for t ≥ 0: ½·I_x(df/2, ½) with x and 1 − x both
// computed directly (1 − x = t²/(df + t²)), so neither a small t nor a far
// tail loses digits to a subtraction.
func tUpper(t, df float64) float64 { return tUpperB(t, df, lnBeta(df/2, 0.5)) }

// tUpperB is tUpper with ln B(df/2, ½) given (a quantile's iterations
// share it).
func tUpperB(t, df, lnB float64) float64 {
	if math.IsInf(t, 1) {
		return 0
	}
	d := df + t*t
	return 0.5 * betaInc(df/2, 0.5, df/d, t*t/d, lnB)
}

// TQuantile is the p-quantile of Student's t with df degrees of freedom:
// the t with TCDF(t, df) = p, for 0 < p < 1 and df > 0 (NaN otherwise;
// ∓Inf at p = 0 and 1). By symmetry Q(p) = −Q(1 − p); for p > ½ it solves
// P(T > t) = 1 − p by Newton's method on the tail, each step kept inside a
// bracket that bisection shrinks when Newton would leave it, to a relative
// 1e-14.
func TQuantile(p, df float64) float64 {
	switch {
	case math.IsNaN(p) || math.IsNaN(df) || df <= 0 || p < 0 || p > 1:
		return math.NaN()
	case p == 0:
		return math.Inf(-1)
	case p == 1:
		return math.Inf(1)
	case p == 0.5:
		return 0
	case p < 0.5:
		return -tQuantileUpper(p, df) // the tail 1 − (1 − p) = p, without rounding 1 − p
	}
	return tQuantileUpper(1-p, df)
}

// tQuantileUpper is the t ≥ 0 with P(T > t) = q, 0 < q < ½. Newton starts
// from the normal quantile z corrected for df (Abramowitz & Stegun
// 26.7.5, t ≈ z + (z³ + z)/(4·df) + (5z⁵ + 16z³ + 3z)/(96·df²)), close
// enough for a few steps where df is not tiny, inside a bracket [lo, hi]
// found by doubling from it.
func tQuantileUpper(q, df float64) float64 {
	lnB := lnBeta(df/2, 0.5)
	z := -math.Sqrt2 * math.Erfinv(2*q-1)
	z2 := z * z
	t := z + z*(z2+1)/(4*df) + z*((5*z2+16)*z2+3)/(96*df*df)
	if !(t > 0) || math.IsInf(t, 0) {
		t = 1
	}
	lo, hi := 0.0, t
	for tUpperB(hi, df, lnB) > q {
		lo, hi = hi, 2*hi
		if math.IsInf(hi, 1) {
			return hi
		}
	}
	for range 200 {
		f := tUpperB(t, df, lnB) - q // decreasing in t
		if f == 0 {
			return t
		}
		if f > 0 {
			lo = t
		} else {
			hi = t
		}
		next := t + f/tDensity(t, df, lnB) // Newton: d tail/dt = −density
		if math.Abs(next-t) <= 1e-14*t {
			return next
		}
		if !(next > lo && next < hi) {
			next = 0.5 * (lo + hi)
		}
		if hi-lo <= 1e-15*hi {
			return next
		}
		t = next
	}
	return t
}

// tDensity is Student's t density,
//
//	Γ((df+1)/2) / (Γ(df/2)·√(df·π)) · (1 + t²/df)^(−(df+1)/2)
//	  = (1 + t²/df)^(−(df+1)/2) / (√df · B(df/2, ½))
//
// with lnB = ln B(df/2, ½) (Γ(½) = √π).
func tDensity(t, df, lnB float64) float64 {
	return math.Exp(-lnB - 0.5*math.Log(df) - (df+1)/2*math.Log1p(t*t/df))
}

// lnBeta is ln B(a, b) = ln Γ(a) + ln Γ(b) − ln Γ(a + b), for a, b > 0.
func lnBeta(a, b float64) float64 {
	la, _ := math.Lgamma(a)
	lb, _ := math.Lgamma(b)
	lab, _ := math.Lgamma(a + b)
	return la + lb - lab
}

// betaInc is the regularized incomplete beta function
//
//	I_x(a, b) = B(x; a, b) / B(a, b) = ∫₀ˣ u^(a−1) (1−u)^(b−1) du / B(a, b)
//
// for a, b > 0 and x in [0, 1], with y = 1 − x passed in (so a caller
// that knows 1 − x exactly keeps its digits) and lnB = lnBeta(a, b). It
// evaluates the continued
// fraction of B(x; a, b) (Abramowitz & Stegun 26.5.8),
//
//	I_x(a, b) = x^a y^b / (a·B(a, b)) · 1/(1 + d₁/(1 + d₂/(1 + …)))
//	d_{2m+1} = −(a+m)(a+b+m) x / ((a+2m)(a+2m+1)),  d_{2m} = m(b−m) x / ((a+2m−1)(a+2m))
//
// by the modified Lentz method where it converges fast, x < (a+1)/(a+b+2),
// and through I_x(a, b) = 1 − I_y(b, a) elsewhere.
func betaInc(a, b, x, y, lnB float64) float64 {
	switch {
	case x <= 0:
		return 0
	case y <= 0:
		return 1
	}
	front := math.Exp(a*math.Log(x) + b*math.Log(y) - lnB)
	if x < (a+1)/(a+b+2) {
		return front * betaCF(a, b, x) / a
	}
	return 1 - front*betaCF(b, a, y)/b
}

// betaCF is the continued fraction 1/(1 + d₁/(1 + d₂/(1 + …))) of
// betaInc, by the modified Lentz method (relative 1e-16, at most 10,000
// terms: convergence takes O(√max(a, b)) of them where it is used).
func betaCF(a, b, x float64) float64 {
	const tiny, eps = 1e-300, 1e-16
	c, d := 1.0, 1-(a+b)*x/(a+1)
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	h := d
	for m := 1; m <= 10000; m++ {
		fm := float64(m)
		for _, num := range [2]float64{
			fm * (b - fm) * x / ((a + 2*fm - 1) * (a + 2*fm)),
			-(a + fm) * (a + b + fm) * x / ((a + 2*fm) * (a + 2*fm + 1)),
		} {
			d = 1 + num*d
			if math.Abs(d) < tiny {
				d = tiny
			}
			c = 1 + num/c
			if math.Abs(c) < tiny {
				c = tiny
			}
			d = 1 / d
			h *= d * c
		}
		if math.Abs(d*c-1) < eps {
			break
		}
	}
	return h
}
