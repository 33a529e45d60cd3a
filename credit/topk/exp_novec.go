//go:build !(goexperiment.simd && amd64)

package topk

// expLogProbs sets out[e] = expLogProb(x[e]) where vectors are not available.
func expLogProbs(out []float64, x []float32) {
	for e, v := range x {
		out[e] = expLogProb(float64(v))
	}
}
