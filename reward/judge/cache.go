package judge

import (
	"container/list"
	"crypto/sha256"
	"encoding/binary"
	"slices"

	"github.com/credo-rl/credo/reward"
)

// cacheKey identifies a verdict: the metric, the prompt and the response,
// hashed so the cache does not hold every response's text. Each part is
// length-prefixed so ("ab","c") and ("a","bc") differ.
type cacheKey [sha256.Size]byte

func keyOf(metric, prompt, response string) cacheKey {
	h := sha256.New()
	var n [8]byte
	for _, s := range []string{metric, prompt, response} {
		binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	var k cacheKey
	h.Sum(k[:0])
	return k
}

// lru is a least-recently-used map of successful verdicts. It is not safe
// for concurrent use: the Judge guards it with its mutex.
type lru struct {
	size  int // ≤ 0: nothing is kept
	order *list.List
	items map[cacheKey]*list.Element
}

type lruEntry struct {
	key cacheKey
	v   reward.Verdict
}

func newLRU(size int) *lru {
	return &lru{size: size, order: list.New(), items: map[cacheKey]*list.Element{}}
}

func (c *lru) get(k cacheKey) (reward.Verdict, bool) {
	e, ok := c.items[k]
	if !ok {
		return reward.Verdict{}, false
	}
	c.order.MoveToFront(e)
	return clone(e.Value.(*lruEntry).v), true
}

func (c *lru) add(k cacheKey, v reward.Verdict) {
	if c.size <= 0 {
		return
	}
	if e, ok := c.items[k]; ok {
		e.Value.(*lruEntry).v = clone(v)
		c.order.MoveToFront(e)
		return
	}
	c.items[k] = c.order.PushFront(&lruEntry{k, clone(v)})
	for c.order.Len() > c.size {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.items, last.Value.(*lruEntry).key)
	}
}

// clone copies a verdict's spans, so a caller that edits them cannot change
// what the cache (or another caller sharing a flight) holds.
func clone(v reward.Verdict) reward.Verdict {
	v.Spans = slices.Clone(v.Spans)
	return v
}

// flight is one verdict being computed; callers asking for the same key
// while it runs wait for it instead of sending their own request.
type flight struct {
	done chan struct{}
	v    reward.Verdict
	err  error
	// abandoned: the leader's own context ended the flight, so its error
	// says nothing about the verdict and a waiter should try again.
	abandoned bool
}
