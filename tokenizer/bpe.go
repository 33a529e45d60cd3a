package tokenizer

import (
	"math"
	"sync"
	"sync/atomic"
)

// noRank marks an adjacent pair that has no merge.
const noRank = math.MaxInt32

// merge is one BPE merge rule: its rank (its line in the merges list; lower
// merges first) and the id of the token it makes.
type merge struct {
	rank int32
	id   int32
}

func pairKey(a, b int32) uint64 { return uint64(uint32(a))<<32 | uint64(uint32(b)) }

// pair returns the merge rule for the adjacent tokens a, b (rank noRank if none).
func (t *BPE) pair(a, b int32) (rank, id int32) {
	if m, ok := t.merges[pairKey(a, b)]; ok {
		return m.rank, m.id
	}
	return noRank, -1
}

// Words up to this many bytes are cached, and merged with the quadratic
// loop; longer ones (long runs of one class, rare) use the heap.
const (
	maxCachedWord = 64
	maxSmallWord  = 256
	maxCacheWords = 1 << 17
)

// wordCache remembers the tokens of words already merged. It stops growing
// at maxCacheWords entries. Shards keep concurrent encoders from queueing on
// one lock.
type wordCache struct {
	shards [16]struct {
		mu sync.RWMutex
		m  map[string][]int32
	}
	n atomic.Int64
}

func shardOf(w string) int { return (len(w)*31 + int(w[0])*7 + int(w[len(w)-1])) & 15 }

func (c *wordCache) get(w string) ([]int32, bool) {
	s := &c.shards[shardOf(w)]
	s.mu.RLock()
	ids, ok := s.m[w]
	s.mu.RUnlock()
	return ids, ok
}

func (c *wordCache) put(w string, ids []int32) {
	if c.n.Load() >= maxCacheWords {
		return
	}
	s := &c.shards[shardOf(w)]
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.m[w]; ok {
		return
	}
	if s.m == nil {
		s.m = make(map[string][]int32)
	}
	s.m[w] = append([]int32(nil), ids...)
	c.n.Add(1)
}

// word appends the tokens of one pre-token (raw bytes) to ids.
func (t *BPE) word(w string, ids []int32) []int32 {
	if len(w) == 1 {
		return append(ids, t.byteID[w[0]])
	}
	if t.ignoreMerges {
		if id, ok := t.vocab[w]; ok {
			return append(ids, id)
		}
	}
	if len(w) > maxCachedWord {
		if len(w) > maxSmallWord {
			return t.mergeHeap(w, ids)
		}
		return t.mergeSmall(w, ids)
	}
	if c, ok := t.cache.get(w); ok {
		return append(ids, c...)
	}
	start := len(ids)
	ids = t.mergeSmall(w, ids)
	t.cache.put(w, ids[start:])
	return ids
}

// mergeSmall runs BPE on w: starting from its bytes, it merges the adjacent
// pair of lowest rank (the leftmost among equals) until no pair has a merge.
// Each step scans the pair ranks, O(n²) in all but with only two map look-ups
// per merge.
func (t *BPE) mergeSmall(w string, out []int32) []int32 {
	var symBuf, rankBuf, newBuf [maxCachedWord]int32
	n := len(w)
	syms, ranks, news := symBuf[:0], rankBuf[:0], newBuf[:0]
	if n > maxCachedWord {
		syms, ranks, news = make([]int32, 0, n), make([]int32, 0, n), make([]int32, 0, n)
	}
	for i := 0; i < n; i++ {
		syms = append(syms, t.byteID[w[i]])
	}
	for i := 0; i+1 < n; i++ {
		r, id := t.pair(syms[i], syms[i+1])
		ranks = append(ranks, r)
		news = append(news, id)
	}
	for {
		best, bestRank := -1, int32(noRank)
		for i, r := range ranks {
			if r < bestRank {
				best, bestRank = i, r
			}
		}
		if best < 0 {
			break
		}
		// Symbols best and best+1 become one; pair best (just merged) goes,
		// and the pairs on either side of the new symbol are looked up again.
		syms[best] = news[best]
		syms = append(syms[:best+1], syms[best+2:]...)
		ranks = append(ranks[:best], ranks[best+1:]...)
		news = append(news[:best], news[best+1:]...)
		if best > 0 {
			ranks[best-1], news[best-1] = t.pair(syms[best-1], syms[best])
		}
		if best < len(ranks) {
			ranks[best], news[best] = t.pair(syms[best], syms[best+1])
		}
	}
	return append(out, syms...)
}

// heapItem is a candidate merge of the symbol at pos with the one after it.
type heapItem struct {
	rank, pos   int32
	left, right int32 // the ids the pair had when queued (stale if changed)
	id          int32 // the merged token
}

func (a heapItem) less(b heapItem) bool {
	return a.rank < b.rank || a.rank == b.rank && a.pos < b.pos
}

type mergeHeap []heapItem

func (h *mergeHeap) push(it heapItem) {
	*h = append(*h, it)
	s := *h
	for i := len(s) - 1; i > 0; {
		p := (i - 1) / 2
		if !s[i].less(s[p]) {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

func (h *mergeHeap) pop() heapItem {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s = s[:last]
	for i := 0; ; {
		l, m := 2*i+1, i
		if l < len(s) && s[l].less(s[m]) {
			m = l
		}
		if r := l + 1; r < len(s) && s[r].less(s[m]) {
			m = r
		}
		if m == i {
			break
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
	*h = s
	return top
}

// mergeHeap is the same BPE as mergeSmall in O(n log n): candidate pairs
// wait in a heap ordered by (rank, position), symbols form a linked list,
// and entries made stale by an earlier merge are skipped when popped.
func (t *BPE) mergeHeap(w string, out []int32) []int32 {
	n := len(w)
	ids := make([]int32, n)
	prev := make([]int32, n)
	next := make([]int32, n)
	for i := 0; i < n; i++ {
		ids[i] = t.byteID[w[i]]
		prev[i] = int32(i - 1)
		next[i] = int32(i + 1)
	}
	next[n-1] = -1
	h := make(mergeHeap, 0, n)
	queue := func(p, q int32) {
		if r, id := t.pair(ids[p], ids[q]); r != noRank {
			h.push(heapItem{rank: r, pos: p, left: ids[p], right: ids[q], id: id})
		}
	}
	for i := 0; i+1 < n; i++ {
		queue(int32(i), int32(i+1))
	}
	for len(h) > 0 {
		it := h.pop()
		p := it.pos
		q := next[p]
		// A symbol's id only ever changes into a longer token, so equal ids
		// mean the queued pair is still there.
		if ids[p] != it.left || q < 0 || ids[q] != it.right {
			continue
		}
		ids[p] = it.id
		ids[q] = -1
		next[p] = next[q]
		if next[q] >= 0 {
			prev[next[q]] = p
		}
		if prev[p] >= 0 {
			queue(prev[p], p)
		}
		if next[p] >= 0 {
			queue(p, next[p])
		}
	}
	for i := int32(0); i >= 0; i = next[i] {
		out = append(out, ids[i])
	}
	return out
}

// reset empties the cache (for benchmarks of the cold path).
func (c *wordCache) reset() {
	for i := range c.shards {
		s := &c.shards[i]
		s.mu.Lock()
		s.m = nil
		s.mu.Unlock()
	}
	c.n.Store(0)
}
