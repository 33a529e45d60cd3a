// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package avx2

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// packedProduct packs lhs [M, K] and rhs [K, N] (row-major) for the
// microkernel with kernelRows-row strips and runs it into out [M', N']
// (M', N' rounded up to whole strips), accumulating when asked.
func packedProduct(kernelRows int, lhs, rhs []float32, M, K, N int, out []float32, accumulate bool) {
	mPad := (M + kernelRows - 1) / kernelRows * kernelRows
	nPad := (N + 15) / 16 * 16
	packedLHS := make([]float32, mPad*K)
	packedRHS := make([]float32, nPad*K)
	avx2PackLHSKernelRows4(lhs, packedLHS, 0, 0, K, M, K, kernelRows)
	avx2PackRHSNonTransposed(rhs, packedRHS, 0, 0, N, K, N, 16)
	avx2LargeKernelRowsFloat32Asm(kernelRows, packedLHS, packedRHS, out, mPad, nPad, K, M, N, accumulate)
}

// TestLargeKernel6x16 checks the 6 x 16 kernel (and its packing) against a
// float64 reference and the 4 x 16 kernel, over shapes with partial strips,
// odd and even contracting lengths, and both store modes.
func TestLargeKernel6x16(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, s := range []struct{ M, K, N int }{
		{6, 1, 16}, {6, 2, 16}, {12, 7, 32}, {5, 9, 16}, {13, 128, 48}, {48, 128, 512}, {1, 3, 5}, {7, 33, 17},
	} {
		for _, accumulate := range []bool{false, true} {
			t.Run(fmt.Sprintf("M%d_K%d_N%d_acc%v", s.M, s.K, s.N, accumulate), func(t *testing.T) {
				lhs := make([]float32, s.M*s.K)
				rhs := make([]float32, s.K*s.N)
				for i := range lhs {
					lhs[i] = rng.Float32()*2 - 1
				}
				for i := range rhs {
					rhs[i] = rng.Float32()*2 - 1
				}
				nPad := (s.N + 15) / 16 * 16
				init := make([]float32, 12*((s.M+5)/6)*nPad)
				for i := range init {
					init[i] = float32(i%3) - 1
				}
				out6 := append([]float32(nil), init...)
				out4 := append([]float32(nil), init...)
				packedProduct(6, lhs, rhs, s.M, s.K, s.N, out6, accumulate)
				packedProduct(4, lhs, rhs, s.M, s.K, s.N, out4, accumulate)
				maxDiff := 0.0
				for r := range s.M {
					for c := range s.N {
						want := 0.0
						for k := range s.K {
							want += float64(lhs[r*s.K+k]) * float64(rhs[k*s.N+c])
						}
						if accumulate {
							want += float64(init[r*nPad+c])
						}
						got := out6[r*nPad+c]
						maxDiff = max(maxDiff, abs64(float64(got)-want))
						if got != out4[r*nPad+c] {
							t.Fatalf("(%d, %d): 6x16 kernel %v, 4x16 kernel %v", r, c, got, out4[r*nPad+c])
						}
					}
				}
				if maxDiff > 1e-4*float64(s.K) {
					t.Errorf("max |6x16 − float64 reference| = %g", maxDiff)
				}
			})
		}
	}
}

// TestPackLHSKernelRows6 checks the 6-row packing (its vector and scalar
// parts, a partial last strip, an offset block) against its definition.
func TestPackLHSKernelRows6(t *testing.T) {
	const lhsRows, lhsCols = 40, 53
	lhs := make([]float32, lhsRows*lhsCols)
	for i := range lhs {
		lhs[i] = float32(i + 1)
	}
	for _, c := range []struct{ rowStart, colStart, rows, cols int }{
		{0, 0, 6, 8}, {0, 0, 12, 53}, {3, 5, 17, 41}, {1, 2, 6, 7}, {34, 0, 6, 16}, {0, 45, 5, 8},
	} {
		panel := make([]float32, (c.rows+5)/6*6*c.cols)
		for i := range panel {
			panel[i] = -1
		}
		packLHSKernelRows6(lhs, panel, c.rowStart, c.colStart, lhsCols, c.rows, c.cols)
		for strip := 0; strip*6 < c.rows; strip++ {
			for k := range c.cols {
				for r := range 6 {
					var want float32
					if row := strip*6 + r; row < c.rows {
						want = lhs[(c.rowStart+row)*lhsCols+c.colStart+k]
					}
					if got := panel[strip*6*c.cols+6*k+r]; got != want {
						t.Fatalf("%+v: strip %d, k %d, row %d: got %v, want %v", c, strip, k, r, got, want)
					}
				}
			}
		}
	}
}

func abs64(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// BenchmarkLargeKernel compares the 4 x 16 and 6 x 16 float32
// microkernels on one cache block (Mc × Kc lhs panel against a Kc × Nc rhs
// panel, both packed, L1/L2 resident), on one thread: the kernels' own
// GFLOP/s, without packing or threading.
//
//	go test ./internal/gobackend/dot/matmul/avx2/ -run XXX -bench LargeKernel
func BenchmarkLargeKernel(b *testing.B) {
	const M, K, N = 48, 128, 512
	lhs := make([]float32, M*K)
	rhs := make([]float32, K*N)
	for i := range lhs {
		lhs[i] = float32(i%7) - 3
	}
	for i := range rhs {
		rhs[i] = float32(i%5) - 2
	}
	for _, rows := range []int{4, 6} {
		b.Run(fmt.Sprintf("%dx16", rows), func(b *testing.B) {
			packedLHS := make([]float32, M*K)
			packedRHS := make([]float32, K*N)
			avx2PackLHSKernelRows4(lhs, packedLHS, 0, 0, K, M, K, rows)
			avx2PackRHSNonTransposed(rhs, packedRHS, 0, 0, N, K, N, 16)
			out := make([]float32, M*N)
			for b.Loop() {
				avx2LargeKernelRowsFloat32Asm(rows, packedLHS, packedRHS, out, M, N, K, M, N, false)
			}
			b.ReportMetric(2*M*K*N*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

// BenchmarkPackLHS compares packing a [48, 128] lhs block (one Mc × Kc
// panel of a row-major [*, 1024] lhs) in 4-row strips (assembly) and
// 6-row strips, in ns per packed element.
func BenchmarkPackLHS(b *testing.B) {
	const rows, cols, lhsCols = 48, 128, 1024
	lhs := make([]float32, rows*lhsCols)
	panel := make([]float32, rows*cols)
	for _, kr := range []int{4, 6} {
		b.Run(fmt.Sprintf("rows%d", kr), func(b *testing.B) {
			for b.Loop() {
				avx2PackLHSKernelRows4(lhs, panel, 0, 256, lhsCols, rows, cols, kr)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*rows*cols), "ns/elem")
		})
	}
}
