// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

package ops_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/internal/gobackend/ops"
	"github.com/gomlx/compute/shapeinference"
	"github.com/gomlx/compute/shapes"
)

// transposeByIterator is the reference: the element-by-element iterator on
// the operand's own (uncollapsed) shape.
func transposeByIterator(shape shapes.Shape, perm []int, src []float32) []float32 {
	want := make([]float32, len(src))
	it := ops.NewTransposeIterator(shape, perm)
	for _, v := range src {
		want[it.Next()] = v
	}
	return want
}

// TestTransposeCollapsedAxes checks ExecuteTranspose against the iterator on
// permutations whose adjacent axes collapse (the einsum layouts of linear
// layers' gradients, [b, t, e] -> [e, b, t]), on axes of size 1, and on
// random shapes and permutations of rank 1 to 6.
func TestTransposeCollapsedAxes(t *testing.T) {
	type tc struct {
		dims, perm []int
	}
	cases := []tc{
		{[]int{16, 64, 96}, []int{2, 0, 1}},           // -> 2-D [1024, 96]^T
		{[]int{16, 64, 96}, []int{1, 2, 0}},           // -> 2-D [16, 6144]^T
		{[]int{4, 8, 3, 40}, []int{0, 3, 1, 2}},       // -> batched 2-D
		{[]int{4, 1, 8, 1, 40}, []int{4, 3, 0, 2, 1}}, // size-1 axes dropped
		{[]int{1, 1, 1}, []int{2, 1, 0}},
		{[]int{5, 1}, []int{1, 0}}, // identity after dropping the unit axis
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		rank := 1 + rng.IntN(6)
		dims := make([]int, rank)
		for i := range dims {
			dims[i] = 1 + rng.IntN(7)
			if rng.IntN(4) == 0 {
				dims[i] = 1
			}
		}
		cases = append(cases, tc{dims, rng.Perm(rank)})
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%v_%v", c.dims, c.perm), func(t *testing.T) {
			shape := shapes.Make(dtypes.Float32, c.dims...)
			src := make([]float32, shape.Size())
			for i := range src {
				src[i] = float32(i + 1)
			}
			outShape, err := shapeinference.Transpose(shape, c.perm)
			if err != nil {
				t.Fatal(err)
			}
			dst, err := backend.GetBuffer(outShape)
			if err != nil {
				t.Fatal(err)
			}
			ops.ExecuteTranspose(backend, makeBuffer(t, shape, src), dst, c.perm)
			want := transposeByIterator(shape, c.perm, src)
			got := dst.Flat.([]float32)
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("at %d: got %v, want %v", i, got[i], want[i])
				}
			}
		})
	}
}

// BenchmarkTransposeLinearGrad is the transpose DotGeneral inserts for a
// linear layer's weight gradient ("bte,btd->ed" on [16, 256, 1024]): the
// element-by-element iterator (what v0.1.14 ran for it) against
// ExecuteTranspose, which collapses it to a 2-D transpose.
func BenchmarkTransposeLinearGrad(b *testing.B) {
	shape := shapes.Make(dtypes.Float32, 16, 256, 1024)
	perm := []int{2, 0, 1}
	src := make([]float32, shape.Size())
	outShape, _ := shapeinference.Transpose(shape, perm)
	b.Run("iterator", func(b *testing.B) {
		out := make([]float32, shape.Size())
		for b.Loop() {
			it := ops.NewTransposeIterator(shape, perm)
			for _, v := range src {
				out[it.Next()] = v
			}
		}
	})
	b.Run("ExecuteTranspose", func(b *testing.B) {
		srcBuf := makeBuffer(b, shape, src)
		dst, err := backend.GetBuffer(outShape)
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			ops.ExecuteTranspose(backend, srcBuf, dst, perm)
		}
	})
}

// TestTransposeOfUnitAxesIsReshape: a permutation that moves only axes of
// size 1 is built as a Reshape (no copy when the operand's buffer can be
// reused), and its result is the transposed value.
func TestTransposeOfUnitAxesIsReshape(t *testing.T) {
	for _, c := range []struct {
		dims, perm []int
		reshape    bool
	}{
		{[]int{3, 1, 4}, []int{1, 0, 2}, true},
		{[]int{3, 1, 4, 1}, []int{0, 3, 2, 1}, true}, // the data order stays 3, 4
		{[]int{3, 4}, []int{1, 0}, false},
		{[]int{2, 3, 4}, []int{2, 0, 1}, false},
	} {
		builder := backend.Builder("transpose").(*gobackend.Builder)
		main := builder.Main().(*gobackend.Function)
		shape := shapes.Make(dtypes.Float32, c.dims...)
		x, err := main.Parameter("x", shape, nil)
		if err != nil {
			t.Fatal(err)
		}
		y, err := ops.Transpose(main, x, c.perm...)
		if err != nil {
			t.Fatal(err)
		}
		gotReshape := y.(*gobackend.Node).OpType == compute.OpTypeReshape
		_, collapsed := ops.CollapseTransposeAxesForTest(c.dims, c.perm)
		wantReshape := slices.Equal(collapsed, []int{0})
		if gotReshape != wantReshape {
			t.Errorf("%v %v: built as Reshape %v, want %v", c.dims, c.perm, gotReshape, wantReshape)
		}
		if err := main.Return([]compute.Value{y}, nil); err != nil {
			t.Fatal(err)
		}
		exec, err := builder.Compile()
		if err != nil {
			t.Fatal(err)
		}
		src := make([]float32, shape.Size())
		for i := range src {
			src[i] = float32(i)
		}
		in, err := backend.BufferFromFlatData(0, src, shape)
		if err != nil {
			t.Fatal(err)
		}
		out, err := exec.Execute([]compute.Buffer{in}, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		want := transposeByIterator(shape, c.perm, src)
		if got := out[0].(*gobackend.Buffer).Flat.([]float32); !slices.Equal(got, want) {
			t.Errorf("%v %v: got %v, want %v", c.dims, c.perm, got, want)
		}
	}
}
