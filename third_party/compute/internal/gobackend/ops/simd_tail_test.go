// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd && linux

package ops

import (
	"testing"

	"github.com/gomlx/compute/internal/simdpart/pageend"
)

// TestSIMDTailAtPageEnd runs binary ops whose inputs end at an unreadable
// page with a tail shorter than a vector: the tail's partial loads must not
// read past the inputs. Go 1.27's simd.LoadFloat32sPart loaded a whole
// vector here (the masked load was not fused), so this test died with
// "unexpected fault address"; in a run it happened when a tensor ended at
// the end of the mapped heap.
func TestSIMDTailAtPageEnd(t *testing.T) {
	ops := map[string]struct {
		run  func(lhs, rhs, out []float32)
		want func(a, b float32) float32
	}{
		"add": {simdAddVVFloat32, func(a, b float32) float32 { return a + b }},
		"sub": {simdSubVVFloat32, func(a, b float32) float32 { return a - b }},
		"mul": {simdMulVVFloat32, func(a, b float32) float32 { return a * b }},
		"max": {simdMaxVVFloat32, func(a, b float32) float32 { return max(a, b) }},
	}
	for name, op := range ops {
		for _, n := range []int{1, 3, 4, 7, 9, 15, 17, 20, 33} {
			lhs, freeL, err := pageend.Float32s(n)
			if err != nil {
				t.Fatal(err)
			}
			rhs, freeR, err := pageend.Float32s(n)
			if err != nil {
				t.Fatal(err)
			}
			out := make([]float32, n)
			op.run(lhs, rhs, out)
			for i := range out {
				if want := op.want(lhs[i], rhs[i]); out[i] != want {
					t.Errorf("%s len %d: out[%d] = %v, want %v", name, n, i, out[i], want)
				}
			}
			freeL()
			freeR()
		}
	}
}
