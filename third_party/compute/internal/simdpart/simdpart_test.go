// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd && linux

package simdpart

import (
	"simd"
	"testing"

	"github.com/gomlx/compute/internal/simdpart/pageend"
)

// pageEnd returns n float32s (1, 2, …, n) ending at an unreadable page.
func pageEnd(t *testing.T, n int) []float32 {
	t.Helper()
	s, release, err := pageend.Float32s(n)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(release)
	return s
}

// TestLoadAtPageEnd loads every tail length from slices that end at an
// unreadable page: no fault, the elements in order, zeros after them.
func TestLoadAtPageEnd(t *testing.T) {
	vLen := simd.BroadcastFloat32s(0).Len()
	for n := 0; n <= vLen+1; n++ {
		s := pageEnd(t, n)
		v, got := LoadFloat32sPart(s)
		if want := min(n, vLen); got != want {
			t.Errorf("len %d: loaded %d, want %d", n, got, want)
		}
		out := make([]float32, vLen)
		v.Store(out)
		for i, x := range out {
			want := float32(0)
			if i < n {
				want = float32(i + 1)
			}
			if x != want {
				t.Errorf("len %d: lane %d = %v, want %v", n, i, x, want)
			}
		}
	}
}

// TestLoadInsideAllocation takes simd's own load when the backing array
// holds a whole vector: same lanes as the copy path.
func TestLoadInsideAllocation(t *testing.T) {
	backing := make([]float32, 2*bufLen)
	for i := range backing {
		backing[i] = float32(i)
	}
	vLen := simd.BroadcastFloat32s(0).Len()
	for n := range vLen {
		direct, _ := LoadFloat32sPart(backing[bufLen : bufLen+n]) // cap 64: simd's load
		copied, _ := LoadFloat32sPart(backing[bufLen : bufLen+n : bufLen+n])
		a, b := make([]float32, vLen), make([]float32, vLen)
		direct.Store(a)
		copied.Store(b)
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("len %d lane %d: direct %v, copied %v", n, i, a[i], b[i])
			}
		}
	}
}
