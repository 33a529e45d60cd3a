// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64

package avx2

// avx2LargeKernel6x16Float32Asm is the 6 rows x 16 cols float32 GEMM
// microkernel: avx2LargeKernelFloat32Asm with lhs strips of 6 rows, which
// keeps 12 accumulators in flight instead of 8. Defined in
// large6_amd64_float32.s.
//
//go:noescape
func avx2LargeKernel6x16Float32Asm(
	packedLHS, packedRHS, packedOutput []float32,
	lhsPanelRows, rhsPanelCols int,
	contractingLen int,
	lhsActiveRows, rhsActiveCols int,
	accumulate bool,
)

// avx2LargeKernelRowsFloat32Asm runs the float32 assembly microkernel for
// lhs strips of kernelRows rows (params.LHSL1KernelRows): 6 or 4.
func avx2LargeKernelRowsFloat32Asm(
	kernelRows int,
	packedLHS, packedRHS, packedOutput []float32,
	lhsPanelRows, rhsPanelCols int,
	contractingLen int,
	lhsActiveRows, rhsActiveCols int,
	accumulate bool,
) {
	if kernelRows == 6 {
		avx2LargeKernel6x16Float32Asm(packedLHS, packedRHS, packedOutput, lhsPanelRows, rhsPanelCols, contractingLen, lhsActiveRows, rhsActiveCols, accumulate)
		return
	}
	avx2LargeKernelFloat32Asm(packedLHS, packedRHS, packedOutput, lhsPanelRows, rhsPanelCols, contractingLen, lhsActiveRows, rhsActiveCols, accumulate)
}
