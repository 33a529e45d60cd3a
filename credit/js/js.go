package js

import "math"

// Divergence is the Jensen–Shannon divergence of two next-token
// distributions in bits, the replay source's default relevance
// (ALGORITHMS.md §2; credit.Config.JS "divergence"):
//
//	JS(p, q) / ln 2 ∈ [0, 1],  JS = ½·KL(p ‖ m) + ½·KL(q ‖ m),  m = ½(p + q)
//
// (the divergence itself, not its square root: see Distance). It is 0 for equal
// distributions and 1 for disjoint ones, and symmetric bit for bit. Inputs
// are float32, arithmetic and sums float64. A zero probability contributes
// 0 (the limit of x·ln x), so the result is never NaN; entries that are
// negative, NaN or infinite count as 0, a shorter slice counts as padded
// with zeros, and the result is clamped to [0, 1] against rounding.
func Divergence(p, q []float32) float64 {
	n := min(len(p), len(q))
	s := jsSumVec(p[:n], q[:n])
	// Entries only one side has: m = a/2, the term is a·ln 2.
	for _, x := range p[n:] {
		s += prob(x) * math.Ln2
	}
	for _, x := range q[n:] {
		s += prob(x) * math.Ln2
	}
	d := 0.5 * s / math.Ln2
	return min(max(d, 0), 1)
}

// Distance is the Jensen–Shannon distance normalized into [0, 1],
// √(JS(p, q)/ln 2) = √Divergence(p, q): the form the MRTPO paper names
// (credit.Config.JS "distance"). The square root is a metric and flattens the
// relevance: small divergences grow relative to large ones, so the same
// replay spreads over more tokens.
func Distance(p, q []float32) float64 {
	return math.Sqrt(Divergence(p, q))
}

// jsSum is Σ_v a·ln(a/m) + b·ln(b/m) over equal-length p and q, m = (a+b)/2,
// one element at a time: the reference for jsSumVec and its fallback.
// Each term is ≥ 0 (log-sum inequality) and symmetric in a and b. The
// logarithms are lnTable's, written out twice because a function call per
// logarithm would double the time: this loop is the replay method's only
// arithmetic of any size (T·V per replayed pair).
func jsSum(p, q []float32) float64 {
	q = q[:len(p)]
	var s float64
	for v, x := range p {
		a, b := prob(x), prob(q[v])
		if a == b {
			continue // the term is 0
		}
		inv := 2 / (a + b) // 1/m
		var ta, tb float64
		if a > 0 {
			ix := math.Float64bits(a * inv)
			tmp := ix - lnOffset
			e := &lnTable[(tmp>>(52-lnBits))&(1<<lnBits-1)]
			r := math.Float64frombits(ix-tmp&(0xfff<<52))*e.invc - 1
			ta = a * (float64(int64(tmp)>>52)*math.Ln2 + e.logc + r + r*r*lnPoly(r))
		}
		if b > 0 {
			ix := math.Float64bits(b * inv)
			tmp := ix - lnOffset
			e := &lnTable[(tmp>>(52-lnBits))&(1<<lnBits-1)]
			r := math.Float64frombits(ix-tmp&(0xfff<<52))*e.invc - 1
			tb = b * (float64(int64(tmp)>>52)*math.Ln2 + e.logc + r + r*r*lnPoly(r))
		}
		s += ta + tb
	}
	return s
}

// The logarithm of jsSum, for positive normal x (a/m ∈ (0, 2] always is:
// float32 inputs are normal in float64). Write x = 2^k·z with z in
// [0.6875, 1.375) and pick the table interval holding z, with centre c:
//
//	ln x = k·ln 2 + ln c + ln(1 + r),  r = z/c − 1,  |r| < 1/90
//
// and ln(1 + r) = r + r²·lnPoly(r), its Taylor series to r⁸ (error below
// 1e-17). The interval starting at 1 has c = 1, so ln x is accurate
// relative to itself near x = 1, where near-equal distributions put it.
// Each term is within 1e-15·(a + b) of math.Log's (tested).
const (
	lnBits   = 7
	lnOffset = 0x3fe6000000000000 // the bits of 0.6875
)

var lnTable = func() (t [1 << lnBits]struct{ invc, logc float64 }) {
	for i := range t {
		lo := math.Float64frombits(lnOffset + uint64(i)<<(52-lnBits))
		hi := math.Float64frombits(lnOffset + uint64(i+1)<<(52-lnBits))
		c := 0.5 * (lo + hi)
		if lo == 1 {
			c = 1
		}
		t[i].invc = 1 / c
		t[i].logc = -math.Log(t[i].invc) // of the rounded 1/c, so the reduction is consistent
	}
	return t
}()

// lnPoly is (ln(1 + r) − r)/r² to order r⁶.
func lnPoly(r float64) float64 {
	return -0.5 + r*(1.0/3+r*(-0.25+r*(0.2+r*(-1.0/6+r*(1.0/7+r*(-0.125))))))
}

// prob reads a probability, taking anything that is not a finite number
// ≥ 0 as 0.
func prob(x float32) float64 {
	f := float64(x)
	if !(f > 0 && f <= math.MaxFloat32) {
		return 0
	}
	return f
}
