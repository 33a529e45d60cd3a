// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd

package ops

import (
	"simd"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/support/simdmath"
)

// TestSplitRangeCoversOnce: every index in exactly one piece, for sizes
// around the split threshold, with and without a backend.
func TestSplitRangeCoversOnce(t *testing.T) {
	b, err := gobackend.NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	defer b.Finalize()
	for _, be := range []*gobackend.Backend{nil, b} {
		for _, tc := range []struct{ n, per int }{{1, 1}, {100, 1}, {parallelMinElements, 1}, {2*parallelMinElements + 17, 1}, {1 << 20, 1}, {3, 1 << 20}, {4080, 1024}} {
			counts := make([]atomic.Int32, tc.n)
			var calls atomic.Int32
			splitRange(be, tc.n, tc.per, func(lo, hi int) {
				calls.Add(1)
				for i := lo; i < hi; i++ {
					counts[i].Add(1)
				}
			})
			for i := range counts {
				if c := counts[i].Load(); c != 1 {
					t.Fatalf("backend %v, n=%d per=%d: index %d visited %d times", be != nil, tc.n, tc.per, i, c)
				}
			}
			if be != nil && be.Workers.AdjustedMaxParallelism() > 1 && tc.n*tc.per >= 2*parallelMinElements && tc.n > 1 && calls.Load() < 2 {
				t.Errorf("n=%d per=%d: one piece, want it split", tc.n, tc.per)
			}
		}
	}
}

// TestBinarySplitMatchesSerial: each broadcast pattern of the float32
// multiply gives bit-identical outputs split across workers and serial.
func TestBinarySplitMatchesSerial(t *testing.T) {
	b, err := gobackend.NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	defer b.Finalize()
	const A, B = 1021, 259 // not multiples of the vector length or the piece count
	full := make([]float32, A*B)
	row := make([]float32, B)
	col := make([]float32, A)
	for i := range full {
		full[i] = float32(i%97)/13 - 3
	}
	for i := range row {
		row[i] = float32(i%31)/7 - 2
	}
	for i := range col {
		col[i] = float32(i%29)/5 - 1
	}
	scalar := []float32{1.5}
	cases := []struct {
		name     string
		lhs, rhs []float32
		pattern  gobackend.BroadcastPattern
	}{
		{"none", full, slices.Clone(full), gobackend.BroadcastNone},
		{"scalar-rhs", full, scalar, gobackend.BroadcastNone},
		{"scalar-lhs", scalar, full, gobackend.BroadcastNone},
		{"leading-rhs", full, row, gobackend.BroadcastLeadingRHS},
		{"leading-lhs", row, full, gobackend.BroadcastLeadingLHS},
		{"trailing-rhs", full, col, gobackend.BroadcastTrailingRHS},
		{"trailing-lhs", col, full, gobackend.BroadcastTrailingLHS},
		{"row-col", col, row, gobackend.BroadcastRowCol},
		{"col-row", row, col, gobackend.BroadcastColRow},
	}
	for _, tc := range cases {
		cfg := gobackend.BroadcastConfig{Pattern: tc.pattern, A: A, B: B}
		run := func(be *gobackend.Backend) []float32 {
			out := make([]float32, A*B)
			err := dispatchBinarySIMD(be, tc.lhs, tc.rhs, out, cfg,
				simdMulVVFloat32, simdMulVSFloat32, func(c float32, r []float32, out []float32) { simdMulVSFloat32(r, c, out) },
				simdV2V1MulFloat32, simdV1V2MulFloat32)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			return out
		}
		serial, split := run(nil), run(b)
		if i := firstDiff(serial, split); i >= 0 {
			t.Errorf("%s: split output[%d] = %v, serial %v", tc.name, i, split[i], serial[i])
		}
	}
}

// TestMiddleSplitMatchesLoop: the middle-axis broadcast ([A, M, B] op
// [A, 1, B]) split across workers equals an element-by-element loop.
func TestMiddleSplitMatchesLoop(t *testing.T) {
	b, err := gobackend.NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	defer b.Finalize()
	const A, M, B = 8, 64, 259 // 132,608 elements: split in two
	full := make([]float32, A*M*B)
	mid := make([]float32, A*B)
	for i := range full {
		full[i] = float32(i%97)/13 - 3
	}
	for i := range mid {
		mid[i] = float32(i%31)/7 - 2
	}
	for _, pattern := range []gobackend.BroadcastPattern{gobackend.BroadcastMiddleRHS, gobackend.BroadcastMiddleLHS} {
		lhs, rhs := full, mid
		if pattern == gobackend.BroadcastMiddleLHS {
			lhs, rhs = mid, full
		}
		out := make([]float32, A*M*B)
		cfg := gobackend.BroadcastConfig{Pattern: pattern, A: A, M: M, B: B}
		if err := dispatchBinarySIMD(b, lhs, rhs, out, cfg, simdSubVVFloat32, simdSubVSFloat32, simdSubSVFloat32, nil, nil); err != nil {
			t.Fatal(err)
		}
		for i := range out {
			m := mid[(i/(M*B))*B+i%B]
			want := full[i] - m
			if pattern == gobackend.BroadcastMiddleLHS {
				want = m - full[i]
			}
			if out[i] != want {
				t.Fatalf("pattern %v: out[%d] = %v, want %v", pattern, i, out[i], want)
			}
		}
	}
}

// TestUnarySplitMatchesSerial: a unary SIMD op split across workers is
// bit-identical to the serial loop.
func TestUnarySplitMatchesSerial(t *testing.T) {
	b, err := gobackend.NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	defer b.Finalize()
	in := make([]float32, 3*parallelMinElements+5)
	for i := range in {
		in[i] = float32(i%211)/17 - 6
	}
	serial, split := make([]float32, len(in)), make([]float32, len(in))
	sigmoid := func(v simd.Float32s) simd.Float32s { return simdmath.SigmoidFloat32(v) }
	simdUnaryFloat32(in, serial, sigmoid)
	simdUnaryFloat32Split(b, in, split, sigmoid)
	if i := firstDiff(serial, split); i >= 0 {
		t.Fatalf("split sigmoid[%d] = %v, serial %v", i, split[i], serial[i])
	}
}

func firstDiff(a, b []float32) int {
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}

// BenchmarkBinarySplit: a [16, 255, 1024] float32 product (the SwiGLU's
// size in the 10M preset), serial against split across workers.
func BenchmarkBinarySplit(b *testing.B) {
	be, err := gobackend.NewBackend()
	if err != nil {
		b.Fatal(err)
	}
	defer be.Finalize()
	n := 16 * 255 * 1024
	x, y, out := make([]float32, n), make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], y[i] = float32(i%7), float32(i%5)
	}
	cfg := gobackend.BroadcastConfig{Pattern: gobackend.BroadcastNone}
	for _, tc := range []struct {
		name string
		be   *gobackend.Backend
	}{{"serial", nil}, {"split", be}} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				_ = dispatchBinarySIMD(tc.be, x, y, out, cfg, simdMulVVFloat32, simdMulVSFloat32, nil, nil, nil)
			}
			b.ReportMetric(float64(12*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
		})
	}
}
