package parallel

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
)

// Each calls f once for every index, whatever n is against the chunk size.
func TestEachCoversEveryIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, eachChunk - 1, eachChunk, 3*eachChunk + 5, 1000} {
		hits := make([]atomic.Int32, n)
		var scratches atomic.Int32
		Each(n, func() *int { scratches.Add(1); return new(int) }, func(s *int, i int) {
			*s++ // scratch is one worker's: no race
			hits[i].Add(1)
		})
		for i := range hits {
			if h := hits[i].Load(); h != 1 {
				t.Fatalf("n=%d: index %d ran %d times", n, i, h)
			}
		}
		if n > 0 && scratches.Load() < 1 {
			t.Fatalf("n=%d: no scratch made", n)
		}
	}
}

// For returns the error of the lowest failing index, however the pieces
// are scheduled, and the context's error when it is cancelled.
func TestForErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		fail map[int]bool
		want string
	}{
		{"none", nil, ""},
		{"one", map[int]bool{7: true}, "piece 7"},
		{"lowest of several", map[int]bool{40: true, 3: true, 90: true}, "piece 3"},
	} {
		err := For(context.Background(), 100, func(j int) error {
			if tc.fail[j] {
				return fmt.Errorf("piece %d", j)
			}
			return nil
		})
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%s: error %q, want %q", tc.name, got, tc.want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := For(ctx, 10, func(int) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: error %v, want context.Canceled", err)
	}
}
