// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

package dot_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"syscall"
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/internal/gobackend/dot"
	"github.com/gomlx/compute/shapes"
)

// lhsTransposedDot builds and runs out[b, n, m] = Σ_k lhs[b, k, n]·rhs[b, k, m]
// (one leading batch axis when batch > 0, none otherwise) and returns the
// output and the layout DotGeneral chose.
func lhsTransposedDot(t testing.TB, batch, k, n, m int, lhs, rhs []float32) ([]float32, dot.Layout, compute.Executable, []compute.Buffer) {
	gb := backend.(*gobackend.Backend)
	builder := gb.Builder("lhs_transposed").(*gobackend.Builder)
	main := builder.Main().(*gobackend.Function)
	lhsDims, rhsDims := []int{k, n}, []int{k, m}
	contracting, batchAxes := []int{0}, []int{}
	if batch > 0 {
		lhsDims, rhsDims = []int{batch, k, n}, []int{batch, k, m}
		contracting, batchAxes = []int{1}, []int{0}
	}
	lhsShape, rhsShape := shapes.Make(dtypes.Float32, lhsDims...), shapes.Make(dtypes.Float32, rhsDims...)
	l, err := main.Parameter("lhs", lhsShape, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := main.Parameter("rhs", rhsShape, nil)
	if err != nil {
		t.Fatal(err)
	}
	y, err := main.DotGeneral(l, contracting, batchAxes, r, contracting, batchAxes, compute.DotGeneralConfig{})
	if err != nil {
		t.Fatal(err)
	}
	layout := dot.LayoutIncompatible
	if nd, ok := y.(*gobackend.Node).Data.(*dot.NodeData); ok {
		layout = nd.Layout
	}
	if err := main.Return([]compute.Value{y}, nil); err != nil {
		t.Fatal(err)
	}
	exec, err := builder.Compile()
	if err != nil {
		t.Fatal(err)
	}
	lb, err := gb.BufferFromFlatData(0, lhs, lhsShape)
	if err != nil {
		t.Fatal(err)
	}
	rb, err := gb.BufferFromFlatData(0, rhs, rhsShape)
	if err != nil {
		t.Fatal(err)
	}
	args := []compute.Buffer{lb, rb}
	out, err := exec.Execute(args, []bool{false, false}, 0)
	if err != nil {
		t.Fatal(err)
	}
	return out[0].(*gobackend.Buffer).Flat.([]float32), layout, exec, args
}

// TestDotGeneralLHSTransposed: contracting axes right after the batch axes
// on both sides (a weight gradient's layout) give the same result as a
// float64 reference, on sizes that hit full and partial kernel strips and
// several contracting panels; on AVX-512 machines the layout is used
// without transposes.
func TestDotGeneralLHSTransposed(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, c := range [][4]int{{0, 5, 3, 7}, {0, 300, 40, 33}, {2, 17, 9, 70}, {3, 260, 64, 96}, {0, 1024, 128, 384}} {
		batch, k, n, m := c[0], c[1], c[2], c[3]
		t.Run(fmt.Sprintf("b%d_k%d_n%d_m%d", batch, k, n, m), func(t *testing.T) {
			nb := max(batch, 1)
			lhs, rhs := make([]float32, nb*k*n), make([]float32, nb*k*m)
			for i := range lhs {
				lhs[i] = rng.Float32()*2 - 1
			}
			for i := range rhs {
				rhs[i] = rng.Float32()*2 - 1
			}
			got, layout, _, _ := lhsTransposedDot(t, batch, k, n, m, lhs, rhs)
			if dot.FindRegisteredImplementation(dot.LayoutLHSTransposed, dtypes.Float32, dtypes.Float32) != nil && layout != dot.LayoutLHSTransposed {
				t.Errorf("layout %v, want LayoutLHSTransposed", layout)
			}
			for b := range nb {
				for i := range n {
					for j := range m {
						var want float64
						for p := range k {
							want += float64(lhs[b*k*n+p*n+i]) * float64(rhs[b*k*m+p*m+j])
						}
						g := float64(got[b*n*m+i*m+j])
						if math.Abs(g-want) > 1e-4*math.Sqrt(float64(k)) {
							t.Fatalf("out[%d,%d,%d] = %v, want %v", b, i, j, g, want)
						}
					}
				}
			}
		})
	}
}

// BenchmarkDotGeneralWeightGrad is a linear layer's weight gradient of the
// 10M preset's FFN (Σ over 4096 tokens of dy[t, 1024] ⊗ x[t, 384]), run with
// the transposed-lhs packing (this patch) and, for comparison, as v0.1.14
// ran it: transposing both operands, then the Transposed layout.
func BenchmarkDotGeneralWeightGrad(b *testing.B) {
	const k, n, m = 4096, 1024, 384
	lhs, rhs := make([]float32, k*n), make([]float32, k*m)
	for i := range lhs {
		lhs[i] = float32(i%7) - 3
	}
	for i := range rhs {
		rhs[i] = float32(i%5) - 2
	}
	_, _, exec, args := lhsTransposedDot(b, 0, k, n, m, lhs, rhs)
	b.Run("lhs-transposed", func(b *testing.B) {
		cpu0 := cpuSeconds()
		for b.Loop() {
			out, err := exec.Execute(args, []bool{false, false}, 0)
			if err != nil {
				b.Fatal(err)
			}
			out[0].(*gobackend.Buffer).Finalize()
		}
		b.ReportMetric((cpuSeconds()-cpu0)*1e3/float64(b.N), "cpu-ms/op")
	})
	b.Run("transpose-then-dot", func(b *testing.B) {
		gb := backend.(*gobackend.Backend)
		builder := gb.Builder("transposed").(*gobackend.Builder)
		main := builder.Main().(*gobackend.Function)
		l, _ := main.Parameter("lhs", shapes.Make(dtypes.Float32, k, n), nil)
		r, _ := main.Parameter("rhs", shapes.Make(dtypes.Float32, k, m), nil)
		lt, _ := main.Transpose(l, 1, 0)
		rt, _ := main.Transpose(r, 1, 0)
		y, err := main.DotGeneral(lt, []int{1}, nil, rt, []int{1}, nil, compute.DotGeneralConfig{})
		if err != nil {
			b.Fatal(err)
		}
		if err := main.Return([]compute.Value{y}, nil); err != nil {
			b.Fatal(err)
		}
		exec2, err := builder.Compile()
		if err != nil {
			b.Fatal(err)
		}
		cpu0 := cpuSeconds()
		for b.Loop() {
			out, err := exec2.Execute(args, []bool{false, false}, 0)
			if err != nil {
				b.Fatal(err)
			}
			out[0].(*gobackend.Buffer).Finalize()
		}
		b.ReportMetric((cpuSeconds()-cpu0)*1e3/float64(b.N), "cpu-ms/op")
	})
}

// cpuSeconds is the process's user plus system CPU time: steadier than wall
// time when other work shares the machine.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
