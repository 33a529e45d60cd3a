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

func TestLimitToBudget(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	t.Setenv("GOMEMLIMIT", "")
	debug.SetMemoryLimit(16 << 30)
	if got := limitToBudget(4 << 30); got != 5<<30 || debug.SetMemoryLimit(-1) != 5<<30 {
		t.Errorf("a 4 GiB budget set the limit to %d (runtime has %d), want 5 GiB", got, debug.SetMemoryLimit(-1))
	}
	if got := limitToBudget(8 << 30); got != 0 || debug.SetMemoryLimit(-1) != 5<<30 {
		t.Errorf("a larger budget raised the limit: returned %d, runtime has %d", got, debug.SetMemoryLimit(-1))
	}
	debug.SetMemoryLimit(16 << 30)
	if got := limitToBudget(0); got != 0 || debug.SetMemoryLimit(-1) != 16<<30 {
		t.Errorf("a budget of 0 (never split) set a limit: %d", got)
	}
	t.Setenv("GOMEMLIMIT", "12GiB")
	if got := limitToBudget(4 << 30); got != 0 {
		t.Errorf("GOMEMLIMIT set by the user was overridden: %d", got)
	}
}
