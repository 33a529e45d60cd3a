// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64

#include "textflag.h"

// SKINNY_REDUCE reduces the 8 float32s of ymm (xmm its low half) to one, in xmm.
#define SKINNY_REDUCE(ymm, xmm, xtmp) \
	VEXTRACTF128 $1, ymm, xtmp \
	VADDPS xtmp, xmm, xmm \
	VPERMILPS $0xEE, xmm, xtmp \
	VADDPS xtmp, xmm, xmm \
	VPERMILPS $0x01, xmm, xtmp \
	VADDSS xtmp, xmm, xmm

// func avx2SkinnyTile2x6Float32Asm(
//     lRow0, lRow1, rRow0 unsafe.Pointer,
//     rStrideBytes, contractingLen int,
//     out0, out1 unsafe.Pointer)
//
// out0[j] = Σ_k lRow0[k]·rRow_j[k] and out1[j] likewise for j < 6, rRow_j =
// rRow0 + j·rStrideBytes; contractingLen is a positive multiple of 8.
// Twelve accumulators (Y0–Y11), the two lhs vectors (Y12, Y13) loaded once
// per step of 8 and the six rhs rows' vectors alternating in Y14 and Y15.
TEXT ·avx2SkinnyTile2x6Float32Asm(SB), NOSPLIT, $0-56
	MOVQ lRow0+0(FP), R8
	MOVQ lRow1+8(FP), R9
	MOVQ rRow0+16(FP), R10
	MOVQ rStrideBytes+24(FP), AX
	MOVQ contractingLen+32(FP), BX
	LEAQ (R10)(AX*1), R11
	LEAQ (R11)(AX*1), R12
	LEAQ (R12)(AX*1), R13
	LEAQ (R13)(AX*1), R14
	LEAQ (R14)(AX*1), R15

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
	XORQ SI, SI

	PCALIGN $32
loop_k8:
	VMOVUPS (R8)(SI*1), Y12
	VMOVUPS (R9)(SI*1), Y13
	VMOVUPS (R10)(SI*1), Y14
	VFMADD231PS Y14, Y12, Y0
	VFMADD231PS Y14, Y13, Y6
	VMOVUPS (R11)(SI*1), Y15
	VFMADD231PS Y15, Y12, Y1
	VFMADD231PS Y15, Y13, Y7
	VMOVUPS (R12)(SI*1), Y14
	VFMADD231PS Y14, Y12, Y2
	VFMADD231PS Y14, Y13, Y8
	VMOVUPS (R13)(SI*1), Y15
	VFMADD231PS Y15, Y12, Y3
	VFMADD231PS Y15, Y13, Y9
	VMOVUPS (R14)(SI*1), Y14
	VFMADD231PS Y14, Y12, Y4
	VFMADD231PS Y14, Y13, Y10
	VMOVUPS (R15)(SI*1), Y15
	VFMADD231PS Y15, Y12, Y5
	VFMADD231PS Y15, Y13, Y11
	ADDQ $32, SI
	SUBQ $8, BX
	JG loop_k8

	SKINNY_REDUCE(Y0, X0, X12)
	SKINNY_REDUCE(Y1, X1, X12)
	SKINNY_REDUCE(Y2, X2, X12)
	SKINNY_REDUCE(Y3, X3, X12)
	SKINNY_REDUCE(Y4, X4, X12)
	SKINNY_REDUCE(Y5, X5, X12)
	SKINNY_REDUCE(Y6, X6, X12)
	SKINNY_REDUCE(Y7, X7, X12)
	SKINNY_REDUCE(Y8, X8, X12)
	SKINNY_REDUCE(Y9, X9, X12)
	SKINNY_REDUCE(Y10, X10, X12)
	SKINNY_REDUCE(Y11, X11, X12)

	MOVQ out0+40(FP), DI
	MOVQ out1+48(FP), DX
	VMOVSS X0, 0(DI)
	VMOVSS X1, 4(DI)
	VMOVSS X2, 8(DI)
	VMOVSS X3, 12(DI)
	VMOVSS X4, 16(DI)
	VMOVSS X5, 20(DI)
	VMOVSS X6, 0(DX)
	VMOVSS X7, 4(DX)
	VMOVSS X8, 8(DX)
	VMOVSS X9, 12(DX)
	VMOVSS X10, 16(DX)
	VMOVSS X11, 20(DX)
	VZEROUPPER
	RET
