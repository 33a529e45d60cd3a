// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64

package avx2

import "unsafe"

// avx2SkinnyTile2x6Float32Asm computes 2 rows × 6 columns of dot products:
// out0[j] = Σ_k lRow0[k]·rRow_j[k] and out1[j] = Σ_k lRow1[k]·rRow_j[k] for
// the 6 rhs rows rRow_j = rRow0 + j·rStrideBytes (consecutive rows of an
// [N, K] weight). contractingLen must be a positive multiple of 8. Six rhs
// rows per tile keep them in L1 while only two lhs rows stream in: 8 loads
// for 12 multiply-adds, 2 of them from the lhs (the 4 × 2 tile: 6 for 8, 4
// from the lhs, which a few dozen rows of lhs hold in L2, not L1).
//
//go:noescape
func avx2SkinnyTile2x6Float32Asm(lRow0, lRow1, rRow0 unsafe.Pointer, rStrideBytes, contractingLen int, out0, out1 unsafe.Pointer)
