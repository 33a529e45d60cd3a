package parallel

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// For runs f(0) … f(n−1) on up to GOMAXPROCS goroutines. It returns
// the error of the lowest index that failed, or the context's error.
func For(ctx context.Context, n int, f func(j int) error) error {
	workers := min(runtime.GOMAXPROCS(0), n)
	var next atomic.Int64
	errs := make([]error, n)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				j := int(next.Add(1) - 1)
				if j >= n || ctx.Err() != nil {
					return
				}
				if errs[j] = f(j); errs[j] != nil {
					return
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return ctx.Err()
}

// eachChunk is how many items a worker of Each takes at a
// time: enough to make the shared counter cheap, few enough to balance.
const eachChunk = 16

// Each runs f(s, i) for i in [0, n) on up to GOMAXPROCS
// goroutines, each with its own scratch s from newScratch. f must write
// only what belongs to i, so the result does not depend on which worker
// ran what, or when. Small n runs on the caller's goroutine.
func Each[S any](n int, newScratch func() S, f func(s S, i int)) {
	workers := min(runtime.GOMAXPROCS(0), (n+eachChunk-1)/eachChunk)
	if workers <= 1 {
		s := newScratch()
		for i := range n {
			f(s, i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			s := newScratch()
			for {
				lo := int(next.Add(eachChunk) - eachChunk)
				if lo >= n {
					return
				}
				for i := lo; i < min(lo+eachChunk, n); i++ {
					f(s, i)
				}
			}
		})
	}
	wg.Wait()
}
