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
