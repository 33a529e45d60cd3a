package wire

import (
	"bytes"
	"runtime"
	"sync"
	"sync/atomic"
)

// ParallelArray reads the array at the cursor on several cores: a light
// scan finds where each element begins (brackets and strings only), and f
// reads element i with a decoder of its goroutine's own, i's path on it
// (one goroutine per minLen elements, at most GOMAXPROCS). Decoding is
// most of a large batch's cost, and its responses are independent.
//
// It returns nil, leaving the cursor where it was (but for white space),
// whenever Array would have anything to say: an array that does not scan,
// one of fewer than minLen or more than limit elements, an f that fails
// or reads other than its whole element. The caller then reads the array
// with Array, which words the error. Otherwise the cursor is past the
// array, as after Array, and out[i] is f's value for element i.
func ParallelArray[T any](d *Decoder, minLen, limit int, f func(w *Decoder, i int) (T, error)) []T {
	d.space()
	starts, ends, after, ok := arrayElements(d.data, d.i)
	if !ok || len(starts) < minLen || len(starts) > limit {
		return nil
	}
	out := make([]T, len(starts))
	var failed atomic.Bool
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(starts)/minLen+1) {
		wg.Go(func() {
			w := &Decoder{data: d.data, keys: d.keys, path: append([]step(nil), d.path...)}
			for j := int(next.Add(1) - 1); j < len(starts) && !failed.Load(); j = int(next.Add(1) - 1) {
				w.i, w.path = starts[j], append(w.path[:len(d.path)], step{index: j})
				v, err := f(w, j)
				if w.space(); err != nil || w.i != ends[j] {
					failed.Store(true) // the serial Array says what is wrong
					return
				}
				out[j] = v
			}
		})
	}
	wg.Wait()
	if failed.Load() {
		return nil
	}
	d.i = after
	return out
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
