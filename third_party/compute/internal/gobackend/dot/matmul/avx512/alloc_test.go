// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

package avx512

import (
	"runtime"
	"testing"

	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/internal/gobackend/dot"
)

// TestLargeAllocations: a batched product on the large path (a replay
// call's attention scores, [32, 192, 32] × [32, 32, 256]) allocates little
// of the Go heap once the backend's buffer pool is warm. Its work-item
// channel was made with room for 2,000 items (96 KB, zeroed) on every
// call: 2.6% of a replay's CPU profile went to runtime.makechan.
func TestLargeAllocations(t *testing.T) {
	if !gobackend.IsAVX512Allowed {
		t.Skip("no AVX-512")
	}
	backend, err := gobackend.NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	defer backend.Finalize()
	const batch, M, K, N = 32, 192, 32, 256
	lhs, rhs := make([]float32, batch*M*K), make([]float32, batch*K*N)
	out := make([]float32, batch*M*N)
	run := func() { avx512LargeFloat32(backend, dot.LayoutNonTransposed, lhs, rhs, batch, M, N, K, out, nil) }
	for range 5 {
		run()
	}
	const calls = 50
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range calls {
		run()
	}
	runtime.ReadMemStats(&after)
	perCall := float64(after.TotalAlloc-before.TotalAlloc) / calls
	t.Logf("%.0f bytes allocated per call", perCall)
	if perCall > 16<<10 {
		t.Errorf("%.0f bytes allocated per call, want at most 16 KB", perCall)
	}
}
