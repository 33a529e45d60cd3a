// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

package avx512

import (
	"runtime"
	"strings"
	"testing"

	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/internal/gobackend/dot"
)

// TestLargeAllocations: a batched product on the large path (a replay
// call's attention scores, [32, 192, 32] × [32, 32, 256]) makes no large
// channel. Its work-item channel was made with room for 2,000 items (96
// KB, zeroed) on every call: 2.6% of a replay's CPU profile went to
// runtime.makechan. The test counts the bytes allocated under
// runtime.makechan in the memory profile: the whole heap's count also
// holds the backend's pooled buffers, which a sync.Pool hands back or not
// depending on which processor a worker ran on (1.5 KB to 190 KB per call
// from one run to the next).
func TestLargeAllocations(t *testing.T) {
	if !gobackend.IsAVX512Allowed {
		t.Skip("no AVX-512")
	}
	defer func(rate int) { runtime.MemProfileRate = rate }(runtime.MemProfileRate)
	runtime.MemProfileRate = 1
	backend, err := gobackend.NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	defer backend.Finalize()
	const batch, M, K, N = 32, 192, 32, 256
	lhs, rhs := make([]float32, batch*M*K), make([]float32, batch*K*N)
	out := make([]float32, batch*M*N)
	run := func() { avx512LargeFloat32(backend, dot.LayoutNonTransposed, lhs, rhs, batch, M, N, K, out, nil) }
	run()
	const calls = 20
	before := makechanBytes()
	for range calls {
		run()
	}
	perCall := float64(makechanBytes()-before) / calls
	t.Logf("%.0f bytes of channels made per call", perCall)
	if perCall > 1<<10 {
		t.Errorf("%.0f bytes of channels made per call, want at most 1 KB", perCall)
	}
}

// makechanBytes is the bytes allocated so far under runtime.makechan, as
// the memory profile records them (published two collections late).
func makechanBytes() int64 {
	runtime.GC()
	runtime.GC()
	n, _ := runtime.MemProfile(nil, true)
	recs := make([]runtime.MemProfileRecord, n+64)
	n, _ = runtime.MemProfile(recs, true)
	var total int64
	for _, r := range recs[:n] {
		frames := runtime.CallersFrames(r.Stack())
		for {
			f, more := frames.Next()
			if strings.HasSuffix(f.Function, "runtime.makechan") {
				total += r.AllocBytes
				break
			}
			if !more {
				break
			}
		}
	}
	return total
}
