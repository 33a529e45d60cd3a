// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

package matmul

import (
	"unsafe"

	"github.com/gomlx/compute/dtypes/gotype"
)

// PackTransposedLHS packs the lhs block of rows [rowStart, rowStart+copyRows)
// and contracting columns [colStart, colStart+contractingCols) into panel in
// the layout the large kernels read ([ceil(copyRows/kernelRows),
// contractingCols, kernelRows], the last strip padded with 0), from an lhs
// stored transposed: lhsT [K, lhsRows], so element (row r, column k) is
// lhsT[k*lhsRows + r] (dot.LayoutLHSTransposed). The kernelRows values a
// strip needs at each k are contiguous there, so this is a strided copy with
// no transposition. Full strips of 4, 6 or 8 32-bit values move as 16- and
// 8-byte words: copy() of a few elements, or a 32-byte array assignment, is
// a memmove call.
func PackTransposedLHS[T gotype.ScalarNotComplex](
	lhsT, panel []T,
	rowStart, colStart, lhsRows,
	copyRows, contractingCols, kernelRows int) {
	var zero T
	words := 0 // 8-byte words per strip row on the fast path
	if unsafe.Sizeof(zero) == 4 && (kernelRows == 4 || kernelRows == 6 || kernelRows == 8) {
		words = kernelRows / 2
	}
	p := 0
	for strip := 0; strip < copyRows; strip += kernelRows {
		rows := min(kernelRows, copyRows-strip)
		src := colStart*lhsRows + rowStart + strip
		if rows == kernelRows && words > 0 && contractingCols > 0 {
			_ = lhsT[src+(contractingCols-1)*lhsRows+kernelRows-1]
			_ = panel[p+contractingCols*kernelRows-1]
			s, d := unsafe.Pointer(&lhsT[src]), unsafe.Pointer(&panel[p])
			for range contractingCols {
				*(*[2]uint64)(d) = *(*[2]uint64)(s) // 16 bytes: one vector move, not memmove
				switch words {
				case 3:
					*(*uint64)(unsafe.Add(d, 16)) = *(*uint64)(unsafe.Add(s, 16))
				case 4:
					*(*[2]uint64)(unsafe.Add(d, 16)) = *(*[2]uint64)(unsafe.Add(s, 16))
				}
				d = unsafe.Add(d, kernelRows*4)
				s = unsafe.Add(s, lhsRows*4)
			}
			p += contractingCols * kernelRows
			continue
		}
		for range contractingCols {
			dst := panel[p : p+kernelRows]
			copy(dst, lhsT[src:src+rows])
			for i := rows; i < kernelRows; i++ {
				dst[i] = zero
			}
			p += kernelRows
			src += lhsRows
		}
	}
}
