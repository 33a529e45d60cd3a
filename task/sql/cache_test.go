package sql

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
)

func TestCache(t *testing.T) {
	one := func() *outcome { return &outcome{cols: 1, rows: [][]value{{{kind: kindText, text: "0123456789"}}}} }
	c := newCache(10 * entryBytes("q10", one())) // room for ten entries of q0…q49
	var runs atomic.Int32
	run := func(_ context.Context, q string) (*outcome, error) {
		runs.Add(1)
		return one(), nil
	}
	ctx := context.Background()
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			if _, err := c.get(ctx, "same", run); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if n := runs.Load(); n != 1 {
		t.Errorf("one query asked 16 times concurrently ran %d times", n)
	}
	for i := range 50 {
		c.get(ctx, fmt.Sprint("q", i), run)
	}
	if c.bytes > c.budget || len(c.m) != len(c.order) || len(c.m) != 10 {
		t.Errorf("after 51 queries: %d bytes, %d entries, %d in order (budget %d)", c.bytes, len(c.m), len(c.order), c.budget)
	}
	before := runs.Load()
	c.get(ctx, "q49", run)
	c.get(ctx, "q0", run)
	if got := runs.Load() - before; got != 1 {
		t.Errorf("a kept and an evicted query ran %d times, want 1", got)
	}
	// A run cut short by its caller is not kept.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	c.get(cctx, "canceled", func(context.Context, string) (*outcome, error) { return &outcome{timeout: true}, nil })
	if _, ok := c.m["canceled"]; ok {
		t.Error("an outcome of a canceled run was kept")
	}
}
