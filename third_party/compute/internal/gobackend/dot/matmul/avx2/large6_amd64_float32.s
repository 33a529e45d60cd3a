// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64

#include "textflag.h"

// func avx2LargeKernel6x16Float32Asm(
//     packedLHS, packedRHS, packedOutput []float32,
//     lhsPanelRows, rhsPanelCols int,
//     contractingLen int,
//     lhsActiveRows, rhsActiveCols int,
//     accumulate bool)
//
// The 6 rows x 16 cols float32 microkernel: 12 accumulators (Y0..Y11), two
// rhs vectors (Y12, Y13) and two broadcast lhs values (Y14, Y15), so each
// k step issues 12 independent FMAs against 8 loads (the 4 x 16 kernel
// issues 8 FMAs against 6 loads: with an FMA latency of 4 cycles and two
// FMA ports, 8 accumulators leave no slack). Same arguments and packed
// layouts as avx2LargeKernelFloat32Asm, with lhs strips of 6 rows:
// packedLHS holds, per strip, contractingLen groups of 6 values.
// lhsActiveRows is covered in whole strips of 6 (the packing pads the last
// one with zeros), so the output must have room for them.
TEXT ·avx2LargeKernel6x16Float32Asm(SB), NOSPLIT, $0-113
	MOVQ packedLHS_base+0(FP), R8        // R8 = lhsBasePtr
	MOVQ packedRHS_base+24(FP), R9       // R9 = rhsBasePtr
	MOVQ packedOutput_base+48(FP), R10   // R10 = outBasePtr
	MOVQ rhsPanelCols+80(FP), R11        // R11 = outputStride (cols)
	MOVQ contractingLen+88(FP), R12      // R12 = contractingLen (K)
	MOVQ lhsActiveRows+96(FP), R13       // R13 = lhsActiveRows (M)
	MOVQ rhsActiveCols+104(FP), R14      // R14 = rhsActiveCols (N)
	MOVB accumulate+112(FP), R15         // R15 = accumulate (0 = overwrite, 1 = add)

	SHLQ $2, R11                         // R11 = outputStride in bytes

	XORQ AX, AX                          // AX = lhsRowIdx = 0

loop_lhs:
	CMPQ AX, R13
	JGE done

	XORQ BX, BX                          // BX = rhsColIdx = 0

loop_rhs:
	CMPQ BX, R14
	JGE next_lhs

	// Zero the 12 accumulators.
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11

	// SI = lhs strip: R8 + lhsRowIdx * contractingLen * 4 (a strip of 6 rows is 6 * K floats)
	MOVQ AX, SI
	IMULQ R12, SI
	SHLQ $2, SI
	ADDQ R8, SI

	// DI = rhs strip: R9 + rhsColIdx * contractingLen * 4
	MOVQ BX, DI
	IMULQ R12, DI
	SHLQ $2, DI
	ADDQ R9, DI

	// Prefetch the output tile's 6 rows (64 bytes each, maybe over two
	// lines): with a direct output they are a matrix row apart, and the
	// loads are hidden behind the k loop.
	MOVQ AX, DX
	IMULQ R11, DX
	MOVQ BX, CX
	SHLQ $2, CX
	ADDQ CX, DX
	ADDQ R10, DX
	PREFETCHT0 (DX)
	PREFETCHT0 63(DX)
	ADDQ R11, DX
	PREFETCHT0 (DX)
	PREFETCHT0 63(DX)
	ADDQ R11, DX
	PREFETCHT0 (DX)
	PREFETCHT0 63(DX)
	ADDQ R11, DX
	PREFETCHT0 (DX)
	PREFETCHT0 63(DX)
	ADDQ R11, DX
	PREFETCHT0 (DX)
	PREFETCHT0 63(DX)
	ADDQ R11, DX
	PREFETCHT0 (DX)
	PREFETCHT0 63(DX)

	MOVQ R12, CX
	SHRQ $1, CX                          // CX = contractingLen / 2 (two k steps per iteration)
	JZ k_tail

	PCALIGN $64
k_loop:
	VMOVUPS (DI), Y12
	VMOVUPS 32(DI), Y13
	VBROADCASTSS (SI), Y14
	VBROADCASTSS 4(SI), Y15
	VFMADD231PS Y12, Y14, Y0
	VFMADD231PS Y13, Y14, Y1
	VFMADD231PS Y12, Y15, Y2
	VFMADD231PS Y13, Y15, Y3
	VBROADCASTSS 8(SI), Y14
	VBROADCASTSS 12(SI), Y15
	VFMADD231PS Y12, Y14, Y4
	VFMADD231PS Y13, Y14, Y5
	VFMADD231PS Y12, Y15, Y6
	VFMADD231PS Y13, Y15, Y7
	VBROADCASTSS 16(SI), Y14
	VBROADCASTSS 20(SI), Y15
	VFMADD231PS Y12, Y14, Y8
	VFMADD231PS Y13, Y14, Y9
	VFMADD231PS Y12, Y15, Y10
	VFMADD231PS Y13, Y15, Y11
	VMOVUPS 64(DI), Y12
	VMOVUPS 96(DI), Y13
	VBROADCASTSS 24(SI), Y14
	VBROADCASTSS 28(SI), Y15
	VFMADD231PS Y12, Y14, Y0
	VFMADD231PS Y13, Y14, Y1
	VFMADD231PS Y12, Y15, Y2
	VFMADD231PS Y13, Y15, Y3
	VBROADCASTSS 32(SI), Y14
	VBROADCASTSS 36(SI), Y15
	VFMADD231PS Y12, Y14, Y4
	VFMADD231PS Y13, Y14, Y5
	VFMADD231PS Y12, Y15, Y6
	VFMADD231PS Y13, Y15, Y7
	VBROADCASTSS 40(SI), Y14
	VBROADCASTSS 44(SI), Y15
	VFMADD231PS Y12, Y14, Y8
	VFMADD231PS Y13, Y14, Y9
	VFMADD231PS Y12, Y15, Y10
	VFMADD231PS Y13, Y15, Y11
	ADDQ $48, SI
	ADDQ $128, DI
	DECQ CX
	JNZ k_loop

k_tail:
	TESTQ $1, R12
	JZ store_output
	VMOVUPS (DI), Y12
	VMOVUPS 32(DI), Y13
	VBROADCASTSS (SI), Y14
	VBROADCASTSS 4(SI), Y15
	VFMADD231PS Y12, Y14, Y0
	VFMADD231PS Y13, Y14, Y1
	VFMADD231PS Y12, Y15, Y2
	VFMADD231PS Y13, Y15, Y3
	VBROADCASTSS 8(SI), Y14
	VBROADCASTSS 12(SI), Y15
	VFMADD231PS Y12, Y14, Y4
	VFMADD231PS Y13, Y14, Y5
	VFMADD231PS Y12, Y15, Y6
	VFMADD231PS Y13, Y15, Y7
	VBROADCASTSS 16(SI), Y14
	VBROADCASTSS 20(SI), Y15
	VFMADD231PS Y12, Y14, Y8
	VFMADD231PS Y13, Y14, Y9
	VFMADD231PS Y12, Y15, Y10
	VFMADD231PS Y13, Y15, Y11

store_output:
	// DX = output tile: R10 + lhsRowIdx * outputStride + rhsColIdx * 4
	MOVQ AX, DX
	IMULQ R11, DX
	MOVQ BX, CX
	SHLQ $2, CX
	ADDQ CX, DX
	ADDQ R10, DX

	TESTB R15, R15
	JNZ store_output_accum
	VMOVUPS Y0, (DX)
	VMOVUPS Y1, 32(DX)
	ADDQ R11, DX
	VMOVUPS Y2, (DX)
	VMOVUPS Y3, 32(DX)
	ADDQ R11, DX
	VMOVUPS Y4, (DX)
	VMOVUPS Y5, 32(DX)
	ADDQ R11, DX
	VMOVUPS Y6, (DX)
	VMOVUPS Y7, 32(DX)
	ADDQ R11, DX
	VMOVUPS Y8, (DX)
	VMOVUPS Y9, 32(DX)
	ADDQ R11, DX
	VMOVUPS Y10, (DX)
	VMOVUPS Y11, 32(DX)

	ADDQ $16, BX                         // rhsColIdx += 16
	JMP loop_rhs

store_output_accum:
	VADDPS (DX), Y0, Y0
	VMOVUPS Y0, (DX)
	VADDPS 32(DX), Y1, Y1
	VMOVUPS Y1, 32(DX)
	ADDQ R11, DX
	VADDPS (DX), Y2, Y2
	VMOVUPS Y2, (DX)
	VADDPS 32(DX), Y3, Y3
	VMOVUPS Y3, 32(DX)
	ADDQ R11, DX
	VADDPS (DX), Y4, Y4
	VMOVUPS Y4, (DX)
	VADDPS 32(DX), Y5, Y5
	VMOVUPS Y5, 32(DX)
	ADDQ R11, DX
	VADDPS (DX), Y6, Y6
	VMOVUPS Y6, (DX)
	VADDPS 32(DX), Y7, Y7
	VMOVUPS Y7, 32(DX)
	ADDQ R11, DX
	VADDPS (DX), Y8, Y8
	VMOVUPS Y8, (DX)
	VADDPS 32(DX), Y9, Y9
	VMOVUPS Y9, 32(DX)
	ADDQ R11, DX
	VADDPS (DX), Y10, Y10
	VMOVUPS Y10, (DX)
	VADDPS 32(DX), Y11, Y11
	VMOVUPS Y11, 32(DX)

	ADDQ $16, BX                         // rhsColIdx += 16
	JMP loop_rhs

next_lhs:
	ADDQ $6, AX                          // lhsRowIdx += 6
	JMP loop_lhs

done:
	VZEROUPPER
	RET
