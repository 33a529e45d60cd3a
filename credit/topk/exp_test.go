package topk

import (
	"math"
	"math/rand/v2"
	"testing"
)

// expLogProbs (the vector path where there is one) equals expLogProb bit
// for bit on every log-probability an engine can send, the ends of the
// range included, at every tail length.
func TestExpLogProbsMatchScalar(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	special := []float32{0, float32(math.Copysign(0, -1)), slack, -104, -103.99999, -104.00001, -200, float32(math.Inf(-1)), -1e-30, -0.6931472}
	for trial := range 2000 {
		n := rng.IntN(67)
		x := make([]float32, n)
		for e := range x {
			switch rng.IntN(4) {
			case 0:
				x[e] = special[rng.IntN(len(special))]
			case 1:
				x[e] = -float32(rng.ExpFloat64()) // the usual: near 0
			default:
				x[e] = -110 * float32(rng.Float64())
			}
		}
		out := make([]float64, n)
		expLogProbs(out, x)
		for e, v := range x {
			if want := expLogProb(float64(v)); math.Float64bits(out[e]) != math.Float64bits(want) {
				t.Fatalf("trial %d: e^%v = %v (bits %x), scalar %v (bits %x)", trial, v, out[e], math.Float64bits(out[e]), want, math.Float64bits(want))
			}
		}
	}
}

func BenchmarkExpLogProbs(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	x := make([]float32, 512*20)
	for e := range x {
		x[e] = -float32(rng.ExpFloat64()) * 4
	}
	out := make([]float64, len(x))
	b.Run("vector", func(b *testing.B) {
		for b.Loop() {
			expLogProbs(out, x)
		}
	})
	b.Run("scalar", func(b *testing.B) {
		for b.Loop() {
			for e, v := range x {
				out[e] = expLogProb(float64(v))
			}
		}
	})
}
