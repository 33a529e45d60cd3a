//go:build !(goexperiment.simd && amd64)

package js

// vecJS is false: this build has no vector path (it needs GOEXPERIMENT=simd on amd64).
const vecJS = false

// jsSumVec is jsSum where vectors are not available.
func jsSumVec(p, q []float32) float64 { return jsSum(p, q) }
