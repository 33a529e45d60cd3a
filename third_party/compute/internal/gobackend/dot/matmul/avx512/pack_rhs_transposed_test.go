// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package avx512

import (
	"slices"
	"testing"

	"github.com/gomlx/compute/internal/gobackend"
)

// TestPackTransposedRHS: the float32 32-row packing equals unsafePackLHS's
// (which it replaces for linear layers' weights), for strips with and
// without a partial last one, offsets into a larger matrix and contracting
// widths around the vector sizes.
func TestPackTransposedRHS(t *testing.T) {
	if !gobackend.IsAVX512Allowed || !AVX512UseAsm {
		t.Skip("no AVX-512 assembly")
	}
	const rows, cols = 200, 300
	rhs := make([]float32, rows*cols)
	for i := range rhs {
		rhs[i] = float32(i)
	}
	for _, c := range []struct{ rowStart, colStart, copyRows, contracting int }{
		{0, 0, 32, 1}, {0, 0, 32, 192}, {3, 5, 64, 17}, {10, 7, 95, 192}, {0, 0, 31, 40}, {1, 100, 160, 200}, {40, 0, 33, 8},
	} {
		want := make([]float32, (c.copyRows+31)/32*32*c.contracting)
		got := slices.Clone(want)
		for i := range got {
			got[i], want[i] = -1, -1 // padding rows must be written alike
		}
		unsafePackLHS(rhs, want, c.rowStart, c.colStart, cols, c.copyRows, c.contracting, 32)
		packTransposedRHS(rhs, got, c.rowStart, c.colStart, cols, c.copyRows, c.contracting, 32)
		if !slices.Equal(got, want) {
			t.Errorf("%+v: packed panels differ", c)
		}
	}
}

func BenchmarkPackTransposedRHS(b *testing.B) {
	const rows, cols = 384, 192 // a [384, 128]-or-wider weight's panel: 384 output rows × Kc
	rhs := make([]float32, rows*cols)
	panel := make([]float32, rows*cols)
	b.Run("unsafePackLHS", func(b *testing.B) {
		for b.Loop() {
			unsafePackLHS(rhs, panel, 0, 0, cols, rows, cols, 32)
		}
	})
	b.Run("packTransposedRHS", func(b *testing.B) {
		for b.Loop() {
			packTransposedRHS(rhs, panel, 0, 0, cols, rows, cols, 32)
		}
	})
}
