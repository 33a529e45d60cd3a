// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package avx2

import "unsafe"

// The small non-transposed kernel's tiles are 4 lhs rows tall; the 1–3
// rows left over when lhsCrossSize is not a multiple of 4 ran as scalar
// loops. KV-cache attention is made of such products (the G query heads
// sharing a key head against S cached keys: 3 rows for SmolLM2-135M), so
// there the scalar loop was the whole product: a quarter of a 135M decode
// step's CPU profile. As the AVX-512 kernels already do
// (avx512/small_remainder.go), the rows go through the same tiles, the last
// real row repeated and the extra rows' outputs sent to a scratch buffer.

// nonTransposedRemainderRowsFloat32 computes output rows
// row…lhsCrossSize−1 (fewer than 4) of one batch item, rhs [K, N].
func nonTransposedRemainderRowsFloat32(lhsBase, rhsBase, outputBase uintptr, row, lhsCrossSize, rhsCrossSize, contractingSize int) {
	const elemSize = 4
	var scratch [16]float32
	n := min(lhsCrossSize-row, 4)
	var l [4]unsafe.Pointer
	for i := range l {
		l[i] = unsafe.Pointer(lhsBase + uintptr((row+min(i, n-1))*contractingSize)*elemSize)
	}
	outAt := func(i, col int) unsafe.Pointer {
		if i >= n {
			return unsafe.Pointer(&scratch[0])
		}
		return unsafe.Pointer(outputBase + uintptr((row+i)*rhsCrossSize+col)*elemSize)
	}
	rowStrideBytes := rhsCrossSize * elemSize
	col := 0
	for ; col+15 < rhsCrossSize; col += 16 {
		avx2SmallNonTransposedTile4x16Float32Asm(l[0], l[1], l[2], l[3],
			unsafe.Pointer(rhsBase+uintptr(col)*elemSize), contractingSize, rowStrideBytes,
			outAt(0, col), outAt(1, col), outAt(2, col), outAt(3, col))
	}
	for ; col+7 < rhsCrossSize; col += 8 {
		avx2SmallNonTransposedTile4x8Float32Asm(l[0], l[1], l[2], l[3],
			unsafe.Pointer(rhsBase+uintptr(col)*elemSize), contractingSize, rowStrideBytes,
			outAt(0, col), outAt(1, col), outAt(2, col), outAt(3, col))
	}
	for ; col < rhsCrossSize; col++ {
		for i := range n {
			var s float32
			for k := range contractingSize {
				s += *(*float32)(unsafe.Pointer(lhsBase + uintptr((row+i)*contractingSize+k)*elemSize)) *
					*(*float32)(unsafe.Pointer(rhsBase + uintptr(k*rhsCrossSize+col)*elemSize))
			}
			*(*float32)(unsafe.Pointer(outputBase + uintptr((row+i)*rhsCrossSize+col)*elemSize)) = s
		}
	}
}
