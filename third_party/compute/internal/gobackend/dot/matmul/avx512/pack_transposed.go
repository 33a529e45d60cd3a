// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package avx512

import (
	"simd/archsimd"

	"github.com/gomlx/compute/dtypes/gotype"
	"github.com/gomlx/compute/internal/gobackend/dot/matmul"
)

// packTransposedLHS is matmul.PackTransposedLHS, with float32 strips of 8
// rows moved as one vector each.
func packTransposedLHS[T gotype.ScalarNotComplex](
	lhsT, panel []T,
	rowStart, colStart, lhsRows,
	copyRows, contractingCols, kernelRows int) {
	if f32, ok := any(lhsT).([]float32); ok && kernelRows == 8 {
		packTransposedLHSFloat32x8(f32, any(panel).([]float32), rowStart, colStart, lhsRows, copyRows, contractingCols)
		return
	}
	matmul.PackTransposedLHS(lhsT, panel, rowStart, colStart, lhsRows, copyRows, contractingCols, kernelRows)
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
