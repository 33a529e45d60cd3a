package credit

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// parallelFor runs f(0) … f(n−1) on up to GOMAXPROCS goroutines. It returns
// the error of the lowest index that failed, or the context's error.
func parallelFor(ctx context.Context, n int, f func(j int) error) error {
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
