package main

import (
	"runtime"
	"runtime/debug"
	"testing"
)

func TestLimitMemory(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	t.Setenv("GOMEMLIMIT", "")
	got := limitMemory()
	if runtime.GOOS != "linux" {
		t.Skipf("no RAM reading on %s", runtime.GOOS)
	}
	if got <= 0 || debug.SetMemoryLimit(-1) != got {
		t.Fatalf("limit %d not set (runtime has %d)", got, debug.SetMemoryLimit(-1))
	}
	t.Setenv("GOMEMLIMIT", "1GiB")
	if limitMemory() != 0 {
		t.Error("GOMEMLIMIT set by the user was overridden")
	}
}

func TestHeapLimit(t *testing.T) {
	for _, tc := range []struct {
		budget int64
		params int
		want   int64
	}{
		{4 << 30, 1_000_000, 5 << 30},         // a small model: the budget
		{4 << 30, 134_515_008, 5_380_600_320}, // SmolLM2-135M: twice its 2.15 GB, just over 4 GiB
		{4 << 30, 360_000_000, 14_400_000_000},
		{0, 360_000_000, 0}, // never split: no limit
	} {
		if got := heapLimit(tc.budget, tc.params); got != tc.want {
			t.Errorf("heapLimit(%d, %d) = %d, want %d", tc.budget, tc.params, got, tc.want)
		}
	}
}

func TestLimitHeap(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	t.Setenv("GOMEMLIMIT", "")
	debug.SetMemoryLimit(16 << 30)
	if got := limitHeap(5 << 30); got != 5<<30 || debug.SetMemoryLimit(-1) != 5<<30 {
		t.Errorf("limitHeap(5 GiB) returned %d, runtime has %d", got, debug.SetMemoryLimit(-1))
	}
	if got := limitHeap(8 << 30); got != 0 || debug.SetMemoryLimit(-1) != 5<<30 {
		t.Errorf("a larger limit raised it: returned %d, runtime has %d", got, debug.SetMemoryLimit(-1))
	}
	debug.SetMemoryLimit(16 << 30)
	if got := limitHeap(0); got != 0 || debug.SetMemoryLimit(-1) != 16<<30 {
		t.Errorf("a limit of 0 set one: %d", got)
	}
	t.Setenv("GOMEMLIMIT", "12GiB")
	if got := limitHeap(5 << 30); got != 0 {
		t.Errorf("GOMEMLIMIT set by the user was overridden: %d", got)
	}
}
