//go:build goexperiment.simd && amd64

package topk

import (
	"math"
	"simd/archsimd"
)

// vecExp says whether expLogProbs runs on vectors (AVX2) here.
var vecExp = archsimd.X86.AVX2()

// expLogProbs sets out[e] = expLogProb(x[e]), four lanes at a time with
// AVX2: the same operations in the same order (k = ⌊x·log₂e + ½⌋, the
// two-part reduction, the degree-8 Horner chain, the scale by 2^k), so
// every lane equals the scalar result bit for bit (tested), about three
// times faster, since one exponential's dependent chain is what took the
// time. The tail of fewer than four goes to expLogProb.
func expLogProbs(out []float64, x []float32) {
	n := 0
	if vecExp {
		n = len(x) &^ 3
	}
	const ln2hi, ln2lo = 6.93147180369123816490e-01, 1.90821492927058770002e-10
	b := archsimd.BroadcastFloat64x4
	log2e, half, hi, lo, floor := b(math.Log2E), b(0.5), b(ln2hi), b(ln2lo), b(-104)
	c := [8]archsimd.Float64x4{b(1), b(1.0 / 2), b(1.0 / 6), b(1.0 / 24), b(1.0 / 120), b(1.0 / 720), b(1.0 / 5040), b(1.0 / 40320)}
	magic := b(1<<52 + 1023) // k + 1023 in the low mantissa bits, for the exponent
	zero := b(0)
	for e := 0; e < n; e += 4 {
		v := archsimd.LoadFloat32x4(x[e : e+4]).ConvertToFloat64()
		k := v.Mul(log2e).Add(half).Floor()
		r := v.Sub(k.Mul(hi)).Sub(k.Mul(lo))
		p := c[7]
		for i := 6; i >= 0; i-- {
			p = c[i].Add(r.Mul(p))
		}
		p = c[0].Add(r.Mul(p)) // 1 + r·(1 + r·(½ + …))
		scale := k.Add(magic).ToBits().ShiftAllLeft(52).BitsToFloat64()
		p.Mul(scale).IfElse(v.GreaterEqual(floor), zero).Store(out[e : e+4])
	}
	for e := n; e < len(x); e++ {
		out[e] = expLogProb(float64(x[e]))
	}
}
