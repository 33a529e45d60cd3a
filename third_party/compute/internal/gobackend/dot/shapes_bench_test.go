// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

package dot_test

import (
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/internal/gobackend/dot"
	"github.com/gomlx/compute/shapes"
)

// trainShapes are the products of one training step of a 10M-parameter
// llama (hidden 384, FFN 1024, 6 heads of 64, 16 × 255 tokens): forward
// (x·Wᵀ), input gradients (dy·W), weight gradients (Σ_t dy ⊗ x) and
// attention, each as DotGeneral receives it; and, marked 1M, the 1M
// preset's query and key/value projections over a replay call's 64 × 128
// suffix tokens (hidden 128, 2 key heads of 32).
var trainShapes = []struct {
	name           string
	lhs, rhs       []int
	lc, lb, rc, rb []int
	flops          float64
}{
	{"fwd-384x384", []int{16, 255, 384}, []int{384, 384}, []int{2}, nil, []int{1}, nil, 2 * 4080 * 384 * 384},
	{"fwd-384x1024", []int{16, 255, 384}, []int{1024, 384}, []int{2}, nil, []int{1}, nil, 2 * 4080 * 384 * 1024},
	{"fwd-1024x384", []int{16, 255, 1024}, []int{384, 1024}, []int{2}, nil, []int{1}, nil, 2 * 4080 * 384 * 1024},
	{"dx-384x384", []int{16, 255, 384}, []int{384, 384}, []int{2}, nil, []int{0}, nil, 2 * 4080 * 384 * 384},
	{"dx-1024to384", []int{16, 255, 1024}, []int{1024, 384}, []int{2}, nil, []int{0}, nil, 2 * 4080 * 384 * 1024},
	{"dx-384to1024", []int{16, 255, 384}, []int{384, 1024}, []int{2}, nil, []int{0}, nil, 2 * 4080 * 384 * 1024},
	{"dw-1024x384", []int{16, 255, 1024}, []int{16, 255, 384}, []int{0, 1}, nil, []int{0, 1}, nil, 2 * 4080 * 384 * 1024},
	{"dw-384x384", []int{16, 255, 384}, []int{16, 255, 384}, []int{0, 1}, nil, []int{0, 1}, nil, 2 * 4080 * 384 * 384},
	{"scores", []int{16, 6, 255, 64}, []int{16, 6, 255, 64}, []int{3}, []int{0, 1}, []int{3}, []int{0, 1}, 2 * 96 * 255 * 255 * 64},
	{"kv-1M", []int{64, 128, 128}, []int{64, 128}, []int{2}, nil, []int{1}, nil, 2 * 8192 * 128 * 64},
	{"q-1M", []int{64, 128, 128}, []int{128, 128}, []int{2}, nil, []int{1}, nil, 2 * 8192 * 128 * 128},
	{"pv", []int{16, 6, 255, 255}, []int{16, 6, 255, 64}, []int{3}, []int{0, 1}, []int{2}, []int{0, 1}, 2 * 96 * 255 * 255 * 64},
}

// BenchmarkDotGeneralTrainShapes reports each product's GFLOP/s and layout.
func BenchmarkDotGeneralTrainShapes(b *testing.B) {
	gb := backend.(*gobackend.Backend)
	for _, s := range trainShapes {
		b.Run(s.name, func(b *testing.B) {
			builder := gb.Builder(s.name).(*gobackend.Builder)
			main := builder.Main().(*gobackend.Function)
			ls, rs := shapes.Make(dtypes.Float32, s.lhs...), shapes.Make(dtypes.Float32, s.rhs...)
			l, _ := main.Parameter("lhs", ls, nil)
			r, _ := main.Parameter("rhs", rs, nil)
			y, err := main.DotGeneral(l, s.lc, s.lb, r, s.rc, s.rb, compute.DotGeneralConfig{})
			if err != nil {
				b.Fatal(err)
			}
			if nd, ok := y.(*gobackend.Node).Data.(*dot.NodeData); ok {
				b.Logf("%s: layout %s", s.name, nd.Layout)
			}
			if err := main.Return([]compute.Value{y}, nil); err != nil {
				b.Fatal(err)
			}
			exec, err := builder.Compile()
			if err != nil {
				b.Fatal(err)
			}
			lv := make([]float32, ls.Size())
			rv := make([]float32, rs.Size())
			for i := range lv {
				lv[i] = float32(i%7) - 3
			}
			for i := range rv {
				rv[i] = float32(i%5) - 2
			}
			lb, _ := gb.BufferFromFlatData(0, lv, ls)
			rb, _ := gb.BufferFromFlatData(0, rv, rs)
			args := []compute.Buffer{lb, rb}
			cpu0 := cpuSeconds()
			for b.Loop() {
				out, err := exec.Execute(args, []bool{false, false}, 0)
				if err != nil {
					b.Fatal(err)
				}
				out[0].(*gobackend.Buffer).Finalize()
			}
			b.ReportMetric(s.flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			b.ReportMetric((cpuSeconds()-cpu0)*1e3/float64(b.N), "cpu-ms/op")
		})
	}
}
