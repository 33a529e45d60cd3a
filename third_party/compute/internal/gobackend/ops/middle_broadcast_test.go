// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

package ops_test

import (
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/internal/gobackend/ops"
	"github.com/gomlx/compute/shapes"
)

// TestMiddleBroadcast: an operand with size-1 middle axes ([A, 1, …, B],
// an attention mask [N, 1, T, S] against scores [N, H, T, S]) is classified
// as BroadcastMiddleRHS/LHS, and Add, Sub, Mul and Max on either side give
// what an element-by-element loop gives.
func TestMiddleBroadcast(t *testing.T) {
	full := shapes.Make(dtypes.Float32, 3, 4, 5, 7)
	mid := shapes.Make(dtypes.Float32, 3, 1, 1, 7)
	cfg := gobackend.DetermineBroadcastConfig(full, mid, full)
	if cfg.Pattern != gobackend.BroadcastMiddleRHS || cfg.A != 3 || cfg.M != 20 || cfg.B != 7 {
		t.Fatalf("DetermineBroadcastConfig([3,4,5,7], [3,1,1,7]) = %+v, want MiddleRHS A=3 M=20 B=7", cfg)
	}
	if cfg := gobackend.DetermineBroadcastConfig(mid, full, full); cfg.Pattern != gobackend.BroadcastMiddleLHS {
		t.Fatalf("lhs [3,1,1,7]: pattern %v, want MiddleLHS", cfg.Pattern)
	}
	// Not middle: size-1 axes at the start or the end, or two separate runs.
	for _, s := range [][]int{{1, 4, 5, 7}, {3, 4, 1, 1}, {3, 1, 5, 1}} {
		if cfg := gobackend.DetermineBroadcastConfig(full, shapes.Make(dtypes.Float32, s...), full); cfg.Pattern == gobackend.BroadcastMiddleRHS {
			t.Errorf("rhs %v classified as MiddleRHS", s)
		}
	}

	x := make([]float32, full.Size())
	for i := range x {
		x[i] = float32(i%13) - 6
	}
	m := make([]float32, mid.Size())
	for i := range m {
		m[i] = float32(i%5) + 0.5
	}
	at := func(i int) int { // the mid operand's index for full's flat index i
		return (i/(4*5*7))*7 + i%7
	}
	for _, op := range []struct {
		name string
		fn   func(f *gobackend.Function, lhs, rhs compute.Value) (compute.Value, error)
		eval func(a, b float32) float32
	}{
		{"Add", ops.Add, func(a, b float32) float32 { return a + b }},
		{"Sub", ops.Sub, func(a, b float32) float32 { return a - b }},
		{"Mul", ops.Mul, func(a, b float32) float32 { return a * b }},
		{"Max", ops.Max, func(a, b float32) float32 { return max(a, b) }},
	} {
		wantR, wantL := make([]float32, len(x)), make([]float32, len(x))
		for i := range x {
			wantR[i] = op.eval(x[i], m[at(i)])
			wantL[i] = op.eval(m[at(i)], x[i])
		}
		runBinaryTest(t, op.name+"_MiddleRHS", op.fn, full, x, mid, m, wantR)
		runBinaryTest(t, op.name+"_MiddleLHS", op.fn, mid, m, full, x, wantL)
	}
}
