// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64

package avx512

import (
	"unsafe"

	"github.com/gomlx/compute/dtypes/bfloat16"
	"github.com/gomlx/compute/dtypes/float16"
)

// avx512LargeKernelFloat32Asm is the assembly implementation of the 8 rows x 32 cols GEMM microkernel for Float32.
// Defined in avx512_large_amd64_float32.s.
//
//go:noescape
func avx512LargeKernelFloat32Asm(
	packedLHS, packedRHS, packedOutput []float32,
	lhsPanelRows, rhsPanelCols int,
	contractingLen int,
	lhsActiveRows, rhsActiveCols int,
	accumulate bool,
)

// avx512PackLHSKernelRows4Float32Asm packs 4 rows of float32 LHS matrix in strips of 4 into panel.
// Only full 4-row strips are packed; any remaining partial strip is handled by the caller.
// Defined in avx512_pack_amd64_float32.s.
//
//go:noescape
func avx512PackLHSKernelRows4Float32Asm(
	lhs, panel []float32,
	lhsRowStart, lhsColStart, lhsCols,
	copyRows, contractingCols int,
)

// avx512PackLHSKernelRows8Float32Asm packs 8 rows of float32 LHS matrix in strips of 8 into panel.
// Only full 8-row strips are packed; any remaining partial strip is handled by the caller.
// Defined in pack_amd64_float32.s.
//
//go:noescape
func avx512PackLHSKernelRows8Float32Asm(
	lhs, panel []float32,
	lhsRowStart, lhsColStart, lhsCols,
	copyRows, contractingCols int,
)

// avx512LargeKernelFloat16Asm is the assembly implementation of the 8 rows x 32 cols GEMM microkernel for Float16.
// Defined in avx512_large_amd64_float16.s.
//
//go:noescape
func avx512LargeKernelFloat16Asm(
	packedLHS, packedRHS []float16.Float16,
	packedOutput []float32,
	lhsPanelRows, rhsPanelCols int,
	contractingLen int,
	lhsActiveRows, rhsActiveCols int,
	accumulate bool,
)

// avx512LargeKernelBFloat16Asm is the assembly implementation of the 8 rows x 32 cols GEMM microkernel for BFloat16.
// Defined in avx512_large_amd64_bfloat16.s.
//
//go:noescape
func avx512LargeKernelBFloat16Asm(
	packedLHS, packedRHS []bfloat16.BFloat16,
	packedOutput []float32,
	lhsPanelRows, rhsPanelCols int,
	contractingLen int,
	lhsActiveRows, rhsActiveCols int,
	accumulate bool,
)

// avx512LargeKernelFloat64Asm is the assembly implementation of the 8 rows x 16 cols GEMM microkernel for Float64.
// Defined in avx512_large_amd64_float64.s.
//
//go:noescape
func avx512LargeKernelFloat64Asm(
	packedLHS, packedRHS, packedOutput []float64,
	lhsPanelRows, rhsPanelCols int,
	contractingLen int,
	lhsActiveRows, rhsActiveCols int,
	accumulate bool,
)

// avx512PackLHSKernelRows4Float16Asm packs 4 rows of float16 LHS matrix in strips of 4 into panel.
// Only full 4-row strips are packed; any remaining partial strip is handled by the caller.
// Defined in avx512_pack_amd64_float16.s.
//
//go:noescape
func avx512PackLHSKernelRows4Float16Asm(
	lhs, panel []float16.Float16,
	lhsRowStart, lhsColStart, lhsCols,
	copyRows, contractingCols int,
)

// avx512PackLHSKernelRows4BFloat16Asm packs 4 rows of bfloat16 LHS matrix in strips of 4 into panel.
// Only full 4-row strips are packed; any remaining partial strip is handled by the caller.
// Defined in avx512_pack_amd64_float16.s.
//
//go:noescape
func avx512PackLHSKernelRows4BFloat16Asm(
	lhs, panel []bfloat16.BFloat16,
	lhsRowStart, lhsColStart, lhsCols,
	copyRows, contractingCols int,
)

// avx512PackLHSKernelRows4Float64Asm packs 4 rows of float64 LHS matrix in strips of 4 into panel.
// Only full 4-row strips are packed; any remaining partial strip is handled by the caller.
// Defined in avx512_pack_amd64_float64.s.
//
//go:noescape
func avx512PackLHSKernelRows4Float64Asm(
	lhs, panel []float64,
	lhsRowStart, lhsColStart, lhsCols,
	copyRows, contractingCols int,
)

// avx512PackRHSFullStripsAsm packs full strips of RHS matrix into panel using AVX-512.
// kernelColsBytes must be 256, 128, or 64.
// Defined in avx512_pack_rhs_amd64.s.
//
//go:noescape
func avx512PackRHSFullStripsAsm(
	rhsPtr, panelPtr unsafe.Pointer,
	rhsStrideBytes uintptr,
	contractingRows, numStrips, kernelColsBytes int,
)
