// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package avx512

import (
	"simd/archsimd"

	"github.com/gomlx/compute/dtypes/gotype"
)

// packTransposedRHS packs a transposed rhs ([N, K], the layout of a
// linear layer's weights) into strips of kernelCols rows, as unsafePackLHS
// does. For float32 strips of 32 rows with the assembly kernels on, each
// strip is packed as four 8-row strips by the 8-row assembly packer, and
// their 8-float groups are interleaved into the 32-wide strip one vector
// at a time: unsafePackLHS moved one float at a time through stores 128
// bytes apart (3% of a toolcall replay's CPU profile).
func packTransposedRHS[T gotype.ScalarNotComplex](
	rhs, panel []T,
	rowStart, colStart, rhsCols,
	copyRows, contractingCols, kernelCols int) {
	f32, ok := any(rhs).([]float32)
	if !ok || kernelCols != 32 || !AVX512UseAsm || contractingCols > maxPackContracting || copyRows < 32 {
		unsafePackLHS(rhs, panel, rowStart, colStart, rhsCols, copyRows, contractingCols, kernelCols)
		return
	}
	out := any(panel).([]float32)
	full := copyRows &^ 31
	var tmp [8 * maxPackContracting]float32
	for strip := 0; strip < full; strip += 32 {
		base := strip * contractingCols // the strip's start in panel
		for s := range 4 {
			avx512PackLHSKernelRows8Float32Asm(f32, tmp[:], rowStart+strip+8*s, colStart, rhsCols, 8, contractingCols)
			for k := range contractingCols {
				archsimd.LoadFloat32x8Array((*[8]float32)(tmp[8*k : 8*k+8])).StoreArray((*[8]float32)(out[base+32*k+8*s : base+32*k+8*s+8]))
			}
		}
	}
	if full < copyRows {
		unsafePackLHS(rhs, panel[full*contractingCols:], rowStart+full, colStart, rhsCols, copyRows-full, contractingCols, kernelCols)
	}
}

// maxPackContracting bounds the contracting columns packTransposedRHS
// takes through its stack buffer (the float32 panel's Kc is 192).
const maxPackContracting = 256
