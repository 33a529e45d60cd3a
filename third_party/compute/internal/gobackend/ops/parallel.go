// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

package ops

import (
	"sync"

	"github.com/gomlx/compute/internal/gobackend"
)

// parallelMinElements is the size below which an elementwise op runs on its
// own goroutine: splitting it costs more than it saves.
const parallelMinElements = 1 << 16

// splitRange runs fn over [0, n) split into as many pieces as the backend
// has workers (at most GOMAXPROCS), each piece at least parallelMinElements
// elements (an index stands for elementsPer elements). The caller runs the
// first piece itself; a piece for which the pool has no room runs inline, so
// splitRange never waits for a worker. Pieces are disjoint, so elementwise
// ops stay exact and may write in place.
func splitRange(backend *gobackend.Backend, n, elementsPer int, fn func(lo, hi int)) {
	pieces := 1
	if backend != nil && backend.Workers != nil && backend.Workers.IsEnabled() {
		pieces = min(backend.Workers.AdjustedMaxParallelism(), n*elementsPer/parallelMinElements, n)
	}
	if pieces <= 1 {
		fn(0, n)
		return
	}
	size := (n + pieces - 1) / pieces
	var wg sync.WaitGroup
	for lo := size; lo < n; lo += size {
		hi := min(lo+size, n)
		wg.Add(1)
		if !backend.Workers.StartIfAvailable(func() {
			defer wg.Done()
			fn(lo, hi)
		}) {
			wg.Done()
			fn(lo, hi)
		}
	}
	fn(0, size)
	wg.Wait()
}
