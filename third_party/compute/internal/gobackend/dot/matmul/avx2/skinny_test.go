// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package avx2

import (
	"fmt"
	"math"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/internal/gobackend/dot"
)

// skinnyReference is lhs [M, K] · rhs [K, N] in float64.
func skinnyReference(lhs, rhs []float32, M, N, K int) []float64 {
	out := make([]float64, M*N)
	for r := range M {
		for k := range K {
			l := float64(lhs[r*K+k])
			for c := range N {
				out[r*N+c] += l * float64(rhs[k*N+c])
			}
		}
	}
	return out
}

// TestSkinnyTransposedFloat32 checks the skinny path (rhs [N, K]) against
// a float64 product on decode-like shapes, including rows that are not a
// multiple of 4 and an odd number of columns, with one and two workers.
func TestSkinnyTransposedFloat32(t *testing.T) {
	if !gobackend.IsAVX2Allowed {
		t.Skip("no AVX2")
	}
	backend, err := gobackend.NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	defer backend.Finalize()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, s := range []struct{ M, N, K int }{
		{32, 1536, 576}, {32, 576, 1536}, {32, 192, 576}, {4, 64, 1024}, {32, 49152, 64},
		{5, 100, 704}, {7, 1001, 304}, {33, 88, 512}, {64, 200, 256}, {13, 77, 1000}, {6, 65, 1024},
	} {
		for _, workers := range []int{1, 2} {
			t.Run(fmt.Sprintf("%dx%dx%d/w%d", s.M, s.N, s.K, workers), func(t *testing.T) {
				if !isSkinnyTransposedFloat32(1, s.M, s.N, s.K) {
					t.Fatalf("shape %v does not take the skinny path", s)
				}
				backend.Workers.SetMaxParallelism(workers)
				lhs := make([]float32, s.M*s.K)
				rhs := make([]float32, s.K*s.N) // [K, N], for the reference
				for i := range lhs {
					lhs[i] = float32(rng.NormFloat64())
				}
				for i := range rhs {
					rhs[i] = float32(rng.NormFloat64())
				}
				rhsT := make([]float32, s.N*s.K) // [N, K]
				for k := range s.K {
					for n := range s.N {
						rhsT[n*s.K+k] = rhs[k*s.N+n]
					}
				}
				out := make([]float32, s.M*s.N)
				for i := range out {
					out[i] = float32(math.NaN()) // every element must be written
				}
				avx2RouterFloat32(backend, dot.LayoutTransposed, lhs, rhsT, 1, s.M, s.N, s.K, out, nil)
				want := skinnyReference(lhs, rhs, s.M, s.N, s.K)
				worst := 0.0
				for i, w := range want {
					d := math.Abs(float64(out[i])-w) / (1 + math.Abs(w))
					if !(d <= worst) { // NaN-safe
						worst = d
					}
				}
				t.Logf("max relative difference %.3g", worst)
				if !(worst < 1e-4) {
					t.Fatalf("max relative difference %.3g against the float64 product", worst)
				}
			})
		}
	}
	if isSkinnyTransposedFloat32(1, 32, 100, 63) || isSkinnyTransposedFloat32(2, 32, 100, 64) || isSkinnyTransposedFloat32(1, 65, 100, 64) {
		t.Error("a shape outside the skinny path's (K not a multiple of 8, a batch, 65 rows) takes it")
	}
}

// cpuTime is the process's user and system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkSkinnyFloat32 is a SmolLM2-135M decode step's linear layers at
// batch 32 (q, k, gate, down) and its head, the skinny path (rhs [N, K])
// against the paths it replaces, and against the rhs as [K, N] (the
// layout decoding used before). Each product reads a rhs larger than the
// caches in turn (rhs copies rotate), as decoding does.
//
//	go test ./internal/gobackend/dot/matmul/avx2 -run XXX -bench Skinny
func BenchmarkSkinnyFloat32(b *testing.B) {
	if !gobackend.IsAVX2Allowed {
		b.Skip("no AVX2")
	}
	backend, err := gobackend.NewBackend()
	if err != nil {
		b.Fatal(err)
	}
	defer backend.Finalize()
	for _, s := range []struct{ M, N, K int }{{32, 576, 576}, {32, 192, 576}, {32, 1536, 576}, {32, 576, 1536}, {32, 49152, 576}} {
		lhs := make([]float32, s.M*s.K)
		copies := max(1, (128<<20)/(4*s.K*s.N)) // 128 MiB of rhs in all
		rhs := make([][]float32, copies)
		for i := range rhs {
			rhs[i] = make([]float32, s.K*s.N)
		}
		out := make([]float32, s.M*s.N)
		for _, c := range []struct {
			layout dot.Layout
			on     bool
		}{{dot.LayoutTransposed, true}, {dot.LayoutTransposed, false}, {dot.LayoutNonTransposed, false}} {
			name := fmt.Sprintf("[%d,%d]x[%d,%d]/%s/skinny=%v", s.M, s.K, s.K, s.N, c.layout, c.on)
			b.Run(name, func(b *testing.B) {
				avx2SkinnyEnabled = c.on
				defer func() { avx2SkinnyEnabled = true }()
				cpu0 := cpuTime()
				i := 0
				for b.Loop() {
					avx2RouterFloat32(backend, c.layout, lhs, rhs[i%copies], 1, s.M, s.N, s.K, out, nil)
					i++
				}
				per := b.Elapsed() / time.Duration(b.N)
				b.ReportMetric(2*float64(s.M*s.N*s.K)/per.Seconds()/1e9, "GFlops/s")
				b.ReportMetric(4*float64(s.N*s.K)/per.Seconds()/1e9, "rhs-GB/s")
				// CPU time is steadier than wall time on a shared machine.
				b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/1e3, "cpu-µs/op")
			})
		}
	}
}

// TestSmallRemainderRowsFloat32 checks batched non-transposed products
// with 1–7 lhs rows (KV-cache attention's shapes: the heads sharing a key
// head against the cached keys, then against the values) against float64.
func TestSmallRemainderRowsFloat32(t *testing.T) {
	if !gobackend.IsAVX2Allowed {
		t.Skip("no AVX2")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, s := range []struct{ B, M, N, K int }{
		{6, 3, 192, 64}, {6, 3, 64, 192}, {4, 1, 37, 64}, {4, 2, 24, 9}, {3, 5, 70, 33}, {2, 7, 8, 5}, {2, 3, 5, 11},
	} {
		t.Run(fmt.Sprintf("%dx%dx%dx%d", s.B, s.M, s.N, s.K), func(t *testing.T) {
			lhs := make([]float32, s.B*s.M*s.K)
			rhs := make([]float32, s.B*s.K*s.N)
			for i := range lhs {
				lhs[i] = float32(rng.NormFloat64())
			}
			for i := range rhs {
				rhs[i] = float32(rng.NormFloat64())
			}
			out := make([]float32, s.B*s.M*s.N)
			for i := range out {
				out[i] = float32(math.NaN())
			}
			avx2SmallFloat32NonTransposedAsm(lhs, rhs, 0, s.B, s.M, s.N, s.K, out)
			worst := 0.0
			for b := range s.B {
				want := skinnyReference(lhs[b*s.M*s.K:], rhs[b*s.K*s.N:], s.M, s.N, s.K)
				for i, w := range want {
					d := math.Abs(float64(out[b*s.M*s.N+i])-w) / (1 + math.Abs(w))
					if !(d <= worst) {
						worst = d
					}
				}
			}
			if !(worst < 1e-5) {
				t.Fatalf("max relative difference %.3g against the float64 product", worst)
			}
		})
	}
}
