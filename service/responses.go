package service

import (
	"bytes"
	"runtime"
	"sync"
	"sync/atomic"
)

// parallelMin is the number of responses below which decoding them on
// several cores is not worth the scan that finds them.
const parallelMin = 64

// serialOnly turns decodeResponsesParallel off, for tests that compare.
var serialOnly = false

// decodeResponsesParallel decodes the responses array at the cursor on
// every core: a light scan finds where each response begins (brackets and
// strings only), each is decoded by decodeResponse with a decoder of its
// own, and the group ids are then made dense in response order, as the
// serial loop makes them. It returns nil, nil, leaving the cursor where it
// was (but for white space), whenever that loop has anything to say: an array it would not
// accept (malformed, too long, any response in error, too many tokens), or
// one too short to split. On success the cursor is past the array, as
// after the loop, and every response is what the loop would have read.
func decodeResponsesParallel(d *decoder, groups map[any]int) ([]responseIn, error) {
	if serialOnly {
		return nil, nil
	}
	d.space()
	starts, ends, after, ok := arrayElements(d.data, d.i)
	if !ok || len(starts) < parallelMin || len(starts) > maxResponses {
		return nil, nil
	}
	out := make([]responseIn, len(starts))
	var failed atomic.Bool
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(starts)/parallelMin+1) {
		wg.Go(func() {
			w := &decoder{data: d.data, path: append([]step(nil), d.path...)}
			for j := int(next.Add(1) - 1); j < len(starts) && !failed.Load(); j = int(next.Add(1) - 1) {
				w.i, w.path = starts[j], append(w.path[:len(d.path)], step{index: j})
				r, err := decodeResponse(w, j)
				if w.space(); err != nil || w.i != ends[j] {
					failed.Store(true) // the serial loop says what is wrong
					return
				}
				out[j] = r
			}
		})
	}
	wg.Wait()
	if failed.Load() {
		return nil, nil
	}
	total := 0
	for j := range out {
		out[j].group = denseGroup(groups, out[j].groupKey)
		if total += len(out[j].tokens); total > maxBatchTokens {
			return nil, nil
		}
	}
	d.i = after
	return out, nil
}

// arrayElements finds the elements of the JSON array whose '[' is at i:
// where each starts (its first byte after white space), where it ends
// (the ',' or ']' after it and its white space) and the index after the
// ']'. It checks only brackets and strings; ok is false when those do not
// close.
func arrayElements(data []byte, i int) (starts, ends []int, after int, ok bool) {
	if i >= len(data) || data[i] != '[' {
		return nil, nil, 0, false
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == ']' {
		return nil, nil, i + 1, true
	}
	depth := 0
	starts = append(starts, i)
	for ; i < len(data); i++ {
		switch data[i] {
		case '"':
			end := stringEnd(data, i)
			if end < 0 {
				return nil, nil, 0, false
			}
			i = end
		case '{', '[':
			depth++
		case '}':
			depth--
		case ']':
			if depth == 0 {
				return starts, append(ends, i), i + 1, true
			}
			depth--
		case ',':
			if depth == 0 {
				ends = append(ends, i)
				i = skipSpace(data, i+1)
				starts = append(starts, i)
				i--
			}
		}
		if depth < 0 {
			return nil, nil, 0, false
		}
	}
	return nil, nil, 0, false
}

// stringEnd is the index of the '"' closing the string whose '"' is at i
// (one not escaped: after an even run of backslashes), or −1.
func stringEnd(data []byte, i int) int {
	for j := i + 1; ; {
		k := bytes.IndexByte(data[j:], '"')
		if k < 0 {
			return -1
		}
		q := j + k
		slashes := 0
		for q-1-slashes > i && data[q-1-slashes] == '\\' {
			slashes++
		}
		if slashes%2 == 0 {
			return q
		}
		j = q + 1
	}
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}
