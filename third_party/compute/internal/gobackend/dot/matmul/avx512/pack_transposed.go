// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package avx512

import (
	"simd/archsimd"
	"unsafe"

	"github.com/gomlx/compute/dtypes/gotype"
)

// packTransposedLHS packs the lhs block of rows [rowStart, rowStart+copyRows)
// and contracting columns [colStart, colStart+contractingCols) into panel,
// laid out as avx512PackLHSKernelRows4 lays it out
// ([ceil(copyRows/kernelRows), contractingCols, kernelRows], the last strip
// padded with 0), from an lhs stored transposed: lhsT [K, lhsRows], so
// element (row r, column k) is lhsT[k*lhsRows + r]. The kernelRows values a
// strip needs at each k are contiguous there, so this is a strided copy with
// no transposition (cheaper than packing a row-major lhs).
func packTransposedLHS[T gotype.ScalarNotComplex](
	lhsT, panel []T,
	rowStart, colStart, lhsRows,
	copyRows, contractingCols, kernelRows int) {
	if f32, ok := any(lhsT).([]float32); ok && kernelRows == 8 {
		packTransposedLHSFloat32x8(f32, any(panel).([]float32), rowStart, colStart, lhsRows, copyRows, contractingCols)
		return
	}
	var zero T
	p := 0
	for strip := 0; strip < copyRows; strip += kernelRows {
		rows := min(kernelRows, copyRows-strip)
		src := colStart*lhsRows + rowStart + strip
		if rows == 8 && kernelRows == 8 {
			for range contractingCols {
				*(*[8]T)(unsafe.Pointer(&panel[p])) = *(*[8]T)(unsafe.Pointer(&lhsT[src]))
				p += 8
				src += lhsRows
			}
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

// packTransposedLHSFloat32x8 is packTransposedLHS for float32 and 8 kernel
// rows: each full strip row is one 32-byte vector load and store (an
// [8]float32 assignment compiles to a memmove call, which was most of this
// function's time).
func packTransposedLHSFloat32x8(lhsT, panel []float32, rowStart, colStart, lhsRows, copyRows, contractingCols int) {
	p := 0
	for strip := 0; strip < copyRows; strip += 8 {
		rows := min(8, copyRows-strip)
		src := colStart*lhsRows + rowStart + strip
		if rows == 8 {
			for range contractingCols {
				archsimd.LoadFloat32x8Array((*[8]float32)(lhsT[src : src+8])).StoreArray((*[8]float32)(panel[p : p+8]))
				p += 8
				src += lhsRows
			}
			continue
		}
		for range contractingCols {
			dst := (*[8]float32)(panel[p : p+8])
			*dst = [8]float32{}
			copy(dst[:rows], lhsT[src:src+rows])
			p += 8
			src += lhsRows
		}
	}
}
