package sql

import (
	"context"
	"sync"
)

// cache remembers outcomes by query text. The database never changes, so
// an outcome stays true; sharing it makes the executes and result verdicts
// of one response agree (one run, not two that a noisy machine could time
// differently), and the reference queries of a group run once. Concurrent
// askers for the same query wait for the one run. Entries leave in the
// order they came once the total size passes the budget.
type cache struct {
	mu     sync.Mutex
	m      map[string]*entry
	order  []string // insertion order, oldest first
	cells  int
	budget int // in cells: rows × columns, plus one per entry
}

type entry struct {
	done chan struct{} // closed when o is set
	o    *outcome
}

func newCache(budget int) *cache {
	return &cache{m: map[string]*entry{}, budget: budget}
}

// get returns the outcome for query, running it with run unless it is
// known or already running. An outcome cut short by the caller's context
// is returned but not kept.
func (c *cache) get(ctx context.Context, query string, run func(context.Context, string) (*outcome, error)) (*outcome, error) {
	c.mu.Lock()
	if e, ok := c.m[query]; ok {
		c.mu.Unlock()
		select {
		case <-e.done:
			if e.o != nil {
				return e.o, nil
			}
			return run(ctx, query) // the first run was abandoned
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	e := &entry{done: make(chan struct{})}
	c.m[query] = e
	c.mu.Unlock()

	o, err := run(ctx, query)
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil || ctx.Err() != nil {
		delete(c.m, query)
		e.o = o
		if err != nil {
			e.o = nil
		}
		close(e.done)
		return o, err
	}
	e.o = o
	close(e.done)
	c.order = append(c.order, query)
	c.cells += o.cells()
	for c.cells > c.budget && len(c.order) > 1 {
		old := c.order[0]
		c.order = c.order[1:]
		if oe, ok := c.m[old]; ok && oe.o != nil {
			c.cells -= oe.o.cells()
			delete(c.m, old)
		}
	}
	return o, nil
}
