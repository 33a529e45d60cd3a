// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package avx512

import (
	"sync/atomic"
	"unsafe"

	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/internal/gobackend/dot"
	"github.com/gomlx/compute/internal/gobackend/dot/matmul"
)

// The small kernels' tiles are 4 lhs rows tall; the 1–3 rows left over
// when lhsCrossSize is not a multiple of 4 used to run as scalar loops.
// Batched products with 1 or 2 lhs rows are what KV-cache decoding's
// attention is made of (one query per head, or the G heads sharing a key
// head, against S cached keys), so there the scalar loop was the whole
// product. The functions below run those rows through the same 4-row
// tiles, repeating the last real row and sending the extra rows' outputs
// to a scratch buffer: up to 4× the arithmetic, all of it vectorized.

// tileRows returns the 4 lhs row pointers for rows row…lhsCrossSize−1
// (the last real row repeated) and how many of them are real.
func tileRows(lhsBase uintptr, row, lhsCrossSize, contractingSize int, elemSize uintptr) ([4]unsafe.Pointer, int) {
	n := min(lhsCrossSize-row, 4)
	var rows [4]unsafe.Pointer
	for i := range rows {
		rows[i] = unsafe.Pointer(lhsBase + uintptr((row+min(i, n-1))*contractingSize)*elemSize)
	}
	return rows, n
}

// transposedRemainderRowsFloat32 computes output rows row…lhsCrossSize−1
// (fewer than 4) of one batch item in the transposed layout.
func transposedRemainderRowsFloat32(lhsBase, rhsBase, outputBase uintptr, row, lhsCrossSize, rhsCrossSize, contractingSize int) {
	const elemSize = 4
	var scratch [4]float32
	l, n := tileRows(lhsBase, row, lhsCrossSize, contractingSize, elemSize)
	col := 0
	for ; col+3 < rhsCrossSize; col += 4 {
		var out [4]unsafe.Pointer
		for i := range out {
			out[i] = unsafe.Pointer(&scratch[0])
			if i < n {
				out[i] = unsafe.Pointer(outputBase + uintptr((row+i)*rhsCrossSize+col)*elemSize)
			}
		}
		avx512SmallTransposedTile4x4Float32Asm(l[0], l[1], l[2], l[3],
			unsafe.Pointer(rhsBase+uintptr((col+0)*contractingSize)*elemSize),
			unsafe.Pointer(rhsBase+uintptr((col+1)*contractingSize)*elemSize),
			unsafe.Pointer(rhsBase+uintptr((col+2)*contractingSize)*elemSize),
			unsafe.Pointer(rhsBase+uintptr((col+3)*contractingSize)*elemSize),
			contractingSize, out[0], out[1], out[2], out[3])
	}
	for ; col < rhsCrossSize; col++ {
		rCol := rhsBase + uintptr(col*contractingSize)*elemSize
		for i := range n {
			var s float32
			for k := range contractingSize {
				off := uintptr(k) * elemSize
				s += *(*float32)(unsafe.Add(l[i], off)) * *(*float32)(unsafe.Pointer(rCol + off))
			}
			*(*float32)(unsafe.Pointer(outputBase + uintptr((row+i)*rhsCrossSize+col)*elemSize)) = s
		}
	}
}

// nonTransposedRemainderRowsFloat32 computes output rows row…lhsCrossSize−1
// (fewer than 4) of one batch item in the non-transposed layout.
func nonTransposedRemainderRowsFloat32(lhsBase, rhsBase, outputBase uintptr, row, lhsCrossSize, rhsCrossSize, contractingSize int) {
	const elemSize = 4
	var scratch [64]float32
	l, n := tileRows(lhsBase, row, lhsCrossSize, contractingSize, elemSize)
	outs := func(col int) (out [4]unsafe.Pointer) {
		for i := range out {
			out[i] = unsafe.Pointer(&scratch[0])
			if i < n {
				out[i] = unsafe.Pointer(outputBase + uintptr((row+i)*rhsCrossSize+col)*elemSize)
			}
		}
		return out
	}
	stride := rhsCrossSize * elemSize
	col := 0
	for ; col+63 < rhsCrossSize; col += 64 {
		o := outs(col)
		avx512SmallNonTransposedTile4x64Float32Asm(l[0], l[1], l[2], l[3],
			unsafe.Pointer(rhsBase+uintptr(col)*elemSize), contractingSize, stride, o[0], o[1], o[2], o[3])
	}
	for ; col+15 < rhsCrossSize; col += 16 {
		o := outs(col)
		avx512SmallNonTransposedTile4x16Float32Asm(l[0], l[1], l[2], l[3],
			unsafe.Pointer(rhsBase+uintptr(col)*elemSize), contractingSize, stride, o[0], o[1], o[2], o[3])
	}
	for ; col < rhsCrossSize; col++ {
		for i := range n {
			var s float32
			for k := range contractingSize {
				s += *(*float32)(unsafe.Add(l[i], uintptr(k)*elemSize)) *
					*(*float32)(unsafe.Pointer(rhsBase + uintptr(k*rhsCrossSize+col)*elemSize))
			}
			*(*float32)(unsafe.Pointer(outputBase + uintptr((row+i)*rhsCrossSize+col)*elemSize)) = s
		}
	}
}

// splitRowsWorthIt says whether an unbatched small product is big enough
// to split its lhs rows across workers: a linear layer at decode time
// ([64, 128] × [128, 384]ᵀ, say) is one batch item, which the batch-wise
// parallel path leaves to one core.
func splitRowsWorthIt(lhsCrossSize, rhsCrossSize, contractingSize int) bool {
	return lhsCrossSize >= 8 && lhsCrossSize*rhsCrossSize*contractingSize >= 8*matmul.MinMatMulFlopsPerWorker
}

// avx512SmallFloat32SplitRows runs one batch item's product in chunks of
// lhs rows (multiples of 4, so only the last chunk has leftover rows), one
// chunk per worker.
func avx512SmallFloat32SplitRows(backend *gobackend.Backend, layout dot.Layout, lhs, rhs []float32,
	lhsCrossSize, rhsCrossSize, contractingSize int, output []float32, maxWorkers int) {
	chunks := min(maxWorkers, lhsCrossSize/4)
	rows := ((lhsCrossSize+chunks-1)/chunks + 3) / 4 * 4
	var next atomic.Int64
	backend.Workers.Saturate(func() {
		for {
			r0 := int(next.Add(int64(rows))) - rows
			if r0 >= lhsCrossSize {
				return
			}
			r1 := min(r0+rows, lhsCrossSize)
			l := lhs[r0*contractingSize : r1*contractingSize]
			o := output[r0*rhsCrossSize : r1*rhsCrossSize]
			if layout == dot.LayoutNonTransposed {
				avx512SmallFloat32(l, rhs, 0, 1, r1-r0, rhsCrossSize, contractingSize, o)
			} else {
				avx512SmallFloat32Transposed(l, rhs, 0, 1, r1-r0, rhsCrossSize, contractingSize, o)
			}
		}
	})
}
