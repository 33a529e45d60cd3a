// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package avx512

import (
	"fmt"
	"testing"

	"github.com/gomlx/compute/internal/gobackend"
)

// TestSmallRemainderRowsBatched checks the small kernels on batched
// products whose lhs row count is not a multiple of 4 (KV-cache
// attention's shapes: 1 or 2 query rows against many keys), starting at a
// batch other than 0, in both layouts, against a scalar reference. The
// values are small integers, so every sum is exact.
func TestSmallRemainderRowsBatched(t *testing.T) {
	if !gobackend.IsAVX512Allowed {
		t.Skip("no AVX-512")
	}
	const batch, start = 5, 2
	for _, M := range []int{1, 2, 3, 5, 6, 7} {
		for _, N := range []int{3, 4, 16, 32, 70, 192} {
			for _, K := range []int{1, 7, 32, 192} {
				for _, transposed := range []bool{false, true} {
					t.Run(fmt.Sprintf("M%d/N%d/K%d/T%v", M, N, K, transposed), func(t *testing.T) {
						lhs := make([]float32, batch*M*K)
						for i := range lhs {
							lhs[i] = float32(i%13 - 6)
						}
						rhs := make([]float32, batch*K*N)
						for i := range rhs {
							rhs[i] = float32(i%11 - 5)
						}
						got := make([]float32, batch*M*N)
						for i := range got {
							got[i] = -999
						}
						if transposed {
							avx512SmallFloat32TransposedAsm(lhs, rhs, start, batch-start, M, N, K, got)
						} else {
							avx512SmallFloat32NonTransposedAsm(lhs, rhs, start, batch-start, M, N, K, got)
						}
						for b := range batch {
							for r := range M {
								for c := range N {
									want := float32(-999)
									if b >= start {
										want = 0
										for k := range K {
											rv := rhs[b*K*N+k*N+c] // [K, N]
											if transposed {
												rv = rhs[b*K*N+c*K+k] // [N, K]
											}
											want += lhs[b*M*K+r*K+k] * rv
										}
									}
									if g := got[b*M*N+r*N+c]; g != want {
										t.Fatalf("batch %d (%d, %d): got %v, want %v", b, r, c, g, want)
									}
								}
							}
						}
					})
				}
			}
		}
	}
}
