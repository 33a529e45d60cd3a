// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

package ops

import (
	"math/rand/v2"
	"testing"
)

// TestSliceRowsMatchesElementwise: random slices with unit stride on the
// last axis (ranks 1–5, some axes taken whole, some strided) copied by rows
// equal an element-by-element gather.
func TestSliceRowsMatchesElementwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 500 {
		rank := 1 + rng.IntN(5)
		opDims := make([]int, rank)
		starts, strides, outDims := make([]int, rank), make([]int, rank), make([]int, rank)
		for a := range rank {
			opDims[a] = 1 + rng.IntN(6)
			strides[a] = 1
			if a < rank-1 && rng.IntN(3) == 0 {
				strides[a] = 1 + rng.IntN(2)
			}
			if rng.IntN(2) == 0 { // taken whole
				starts[a], outDims[a] = 0, (opDims[a]+strides[a]-1)/strides[a]
				continue
			}
			starts[a] = rng.IntN(opDims[a])
			outDims[a] = 1 + rng.IntN((opDims[a]-starts[a]+strides[a]-1)/strides[a])
		}
		opStrides := make([]int, rank)
		size, n := 1, 1
		for a := rank - 1; a >= 0; a-- {
			opStrides[a] = size
			size *= opDims[a]
			n *= outDims[a]
		}
		operand := make([]int32, size)
		for i := range operand {
			operand[i] = int32(i)
		}
		want := make([]int32, n)
		idx := make([]int, rank)
		for o := range n {
			src := 0
			for a := range rank {
				src += (starts[a] + idx[a]*strides[a]) * opStrides[a]
			}
			want[o] = operand[src]
			for a := rank - 1; a >= 0; a-- {
				if idx[a]++; idx[a] < outDims[a] {
					break
				}
				idx[a] = 0
			}
		}
		start := 0
		for a := range rank {
			start += starts[a] * opStrides[a]
		}
		got := make([]int32, n)
		sliceRows(operand, got, opDims, outDims, opStrides, strides, start)
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("trial %d: operand %v, starts %v, strides %v, out %v: out[%d] = %d, want %d", trial, opDims, starts, strides, outDims, i, got[i], want[i])
			}
		}
	}
}
