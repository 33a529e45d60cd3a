// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd

package ops

import (
	"math"
	"testing"

	"github.com/gomlx/compute/dtypes"
)

// TestReduceTrailingMaxFloat32Rows: every row's maximum, for row lengths
// around the vector and four-vector boundaries, with the maximum at every
// position of a row.
func TestReduceTrailingMaxFloat32Rows(t *testing.T) {
	for _, B := range []int{1, 3, 5, 15, 16, 17, 31, 63, 64, 65, 127, 128, 130, 256, 300} {
		A := B // row a holds its maximum at position a
		in := make([]float32, A*B)
		for a := range A {
			for b := range B {
				in[a*B+b] = float32(math.Sin(float64(a*B+b))) - 2
			}
			in[a*B+a] = float32(a)
		}
		out := make([]float32, A)
		simdReduceTrailingMaxFloat32(in, out, A, B, dtypes.Float32)
		for a := range A {
			if out[a] != float32(a) {
				t.Fatalf("B=%d: row %d max %v, want %v", B, a, out[a], float32(a))
			}
		}
	}
}

func BenchmarkReduceTrailingMaxFloat32(b *testing.B) {
	const A, B = 4096, 256 // a replay call's score table rows × prefix keys
	in, out := make([]float32, A*B), make([]float32, A)
	for i := range in {
		in[i] = float32(i%977) * 0.01
	}
	for b.Loop() {
		simdReduceTrailingMaxFloat32(in, out, A, B, dtypes.Float32)
	}
}
