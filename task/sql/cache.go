package sql

import (
	"context"
	"strings"
	"sync"
)

// cache remembers outcomes by query text. The database never changes, so
// an outcome stays true; sharing it makes the executes and result verdicts
// of one response agree (one run, not two that a noisy machine could time
// differently), and the reference queries of a group run once. Concurrent
// askers for the same query wait for the one run. An outcome the time limit
// cut short is shared with them but not kept: it depends on the machine's
// load, and a verdict must not depend on what ran beside it. Entries leave
// in the order they came once the total size passes the budget.
type cache struct {
	mu     sync.Mutex
	m      map[string]*entry
	order  []string // insertion order, oldest first
	bytes  int      // estimated: the query texts and outcome.size
	budget int      // in bytes
}

type entry struct {
	done chan struct{} // closed when o is set
	o    *outcome
}

// entryBytes is what one entry costs: its key twice (map and order), the
// entry and map overhead, and the outcome.
func entryBytes(query string, o *outcome) int { return 2*len(query) + 96 + o.size() }

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
	// The key outlives the request: a copy, so that it does not keep the
	// request's whole body alive (the service reads responses in place).
	query = strings.Clone(query)
	e := &entry{done: make(chan struct{})}
	c.m[query] = e
	c.mu.Unlock()

	o, err := run(ctx, query)
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil || ctx.Err() != nil || o.timeout {
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
	c.bytes += entryBytes(query, o)
	for c.bytes > c.budget && len(c.order) > 0 {
		old := c.order[0]
		c.order = c.order[1:]
		if oe, ok := c.m[old]; ok && oe.o != nil {
			c.bytes -= entryBytes(old, oe.o)
			delete(c.m, old)
		}
	}
	return o, nil
}
