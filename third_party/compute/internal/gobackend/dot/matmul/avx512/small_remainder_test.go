// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package avx512

import (
	"fmt"
	"testing"

	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/internal/gobackend/dot"
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

// TestSmallSplitRows checks unbatched small products split by lhs rows
// across workers (both layouts, row counts that do and do not divide into
// chunks of 4) against a scalar reference.
func TestSmallSplitRows(t *testing.T) {
	if !gobackend.IsAVX512Allowed {
		t.Skip("no AVX-512")
	}
	backend, err := gobackend.NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	backend.Workers.SetMaxParallelism(4)
	for _, M := range []int{8, 9, 30, 64, 65} {
		for _, tc := range []struct{ N, K int }{{384, 128}, {128, 384}, {70, 100}} {
			if !splitRowsWorthIt(M, tc.N, tc.K) {
				continue
			}
			for _, layout := range []dot.Layout{dot.LayoutNonTransposed, dot.LayoutTransposed} {
				t.Run(fmt.Sprintf("M%d/N%d/K%d/%s", M, tc.N, tc.K, layout), func(t *testing.T) {
					N, K := tc.N, tc.K
					lhs := make([]float32, M*K)
					for i := range lhs {
						lhs[i] = float32(i%13 - 6)
					}
					rhs := make([]float32, K*N)
					for i := range rhs {
						rhs[i] = float32(i%11 - 5)
					}
					got := make([]float32, M*N)
					avx512SmallFloat32Parallel(backend, layout, lhs, rhs, 1, M, N, K, got)
					for r := range M {
						for c := range N {
							var want float32
							for k := range K {
								rv := rhs[k*N+c]
								if layout == dot.LayoutTransposed {
									rv = rhs[c*K+k]
								}
								want += lhs[r*K+k] * rv
							}
							if g := got[r*N+c]; g != want {
								t.Fatalf("(%d, %d): got %v, want %v", r, c, g, want)
							}
						}
					}
				})
			}
		}
	}
}

// TestRouterFewRowsBatched: a batched product above the small-kernel size
// threshold but with fewer than 8 lhs rows (10M's KV-cache attention:
// 384 heads × 1 query × 192 keys × 64) now takes the small kernels; its
// values must not change.
func TestRouterFewRowsBatched(t *testing.T) {
	if !gobackend.IsAVX512Allowed {
		t.Skip("no AVX-512")
	}
	backend, err := gobackend.NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	const batch, N, K = 384, 192, 64
	for _, M := range []int{1, 2, 7} {
		for _, layout := range []dot.Layout{dot.LayoutNonTransposed, dot.LayoutTransposed} {
			lhs := make([]float32, batch*M*K)
			for i := range lhs {
				lhs[i] = float32(i%13 - 6)
			}
			rhs := make([]float32, batch*K*N)
			for i := range rhs {
				rhs[i] = float32(i%11 - 5)
			}
			got := make([]float32, batch*M*N)
			avx512RouterFloat32(backend, layout, lhs, rhs, batch, M, N, K, got, nil)
			for _, b := range []int{0, 1, batch / 2, batch - 1} {
				for r := range M {
					for c := range N {
						var want float32
						for k := range K {
							rv := rhs[b*K*N+k*N+c]
							if layout == dot.LayoutTransposed {
								rv = rhs[b*K*N+c*K+k]
							}
							want += lhs[b*M*K+r*K+k] * rv
						}
						if g := got[b*M*N+r*N+c]; g != want {
							t.Fatalf("M=%d %s batch %d (%d, %d): got %v, want %v", M, layout, b, r, c, g, want)
						}
					}
				}
			}
		}
	}
}
