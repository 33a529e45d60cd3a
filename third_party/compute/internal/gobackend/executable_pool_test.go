// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

package gobackend_test

import (
	"testing"
	"time"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/shapes"
)

// TestParallelExecutionReleasesPool: the parallel executor's background
// executors mark themselves asleep while they wait for ready nodes (so a
// large DotGeneral can fan out over their slots); after an execution every
// slot and every "asleep" mark must be returned, or the pool shrinks (or
// grows) with each call.
func TestParallelExecutionReleasesPool(t *testing.T) {
	gb := backend.(*gobackend.Backend)
	room := gb.Workers.Room()
	builder := gb.Builder("pool").(*gobackend.Builder)
	main := builder.Main().(*gobackend.Function)
	s := shapes.Make(dtypes.Float32, 64, 64)
	x, err := main.Parameter("x", s, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Independent branches, so several executors have work and wait.
	var outs []compute.Value
	for range 4 {
		y, err := main.Mul(x, x)
		if err != nil {
			t.Fatal(err)
		}
		y, err = main.Tanh(y)
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, y)
	}
	if err := main.Return(outs, nil); err != nil {
		t.Fatal(err)
	}
	exec, err := builder.Compile()
	if err != nil {
		t.Fatal(err)
	}
	in := make([]float32, s.Size())
	for i := range in {
		in[i] = float32(i%11) / 11
	}
	buf := makeBuffer(t, s, in)
	for range 20 {
		res, err := exec.Execute([]compute.Buffer{buf}, []bool{false}, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res {
			r.(*gobackend.Buffer).Finalize()
		}
	}
	// A helper executor returns its slot just after the execution has seen it finish,
	// so give the last ones a moment; a leaked slot or asleep mark never comes back.
	deadline := time.Now().Add(5 * time.Second)
	for gb.Workers.Room() != room && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if got := gb.Workers.Room(); got != room {
		t.Fatalf("pool room after 20 parallel executions = %d, want %d as before", got, room)
	}
}
