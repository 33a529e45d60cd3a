//go:build xla

package model

import (
	"context"
	"slices"
	"testing"
	"time"
)

// TestXLAGraphsBounded: XLA compiles one executable per input shape, so a
// forward function must see few shapes. Sequences of every length 2..64
// compile one graph per Bucket length (16, 32, 48, 64), and the log says
// what a compile costs on this plugin: a shape's first call (compile and
// run) against its second (run).
func TestXLAGraphsBounded(t *testing.T) {
	b, err := EnvBackend()
	if err != nil || b.Name != "xla" {
		t.Skipf("not on XLA: set %s=xla:/abs/path/plugin.so (make test-xla does)", BackendEnv)
	}
	m, err := New(Tiny(32), 1)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var buckets []int
	var compile, rerun time.Duration
	for L := 2; L <= 64; L++ {
		seq := make([]int32, L)
		for i := range seq {
			seq[i] = int32(i % 32)
		}
		start := time.Now()
		if _, err := m.LogProbs(ctx, [][]int32{seq}); err != nil {
			t.Fatal(err)
		}
		first := time.Since(start)
		if bk := Bucket(L); !slices.Contains(buckets, bk) {
			buckets = append(buckets, bk)
			start = time.Now()
			if _, err := m.LogProbs(ctx, [][]int32{seq}); err != nil {
				t.Fatal(err)
			}
			compile += first
			rerun += time.Since(start)
		}
	}
	if got := m.graphs.Shapes("logprobs"); got != len(buckets) {
		t.Errorf("lengths 2..64 compiled %d log-prob graphs, want %d (one per bucket %v)", got, len(buckets), buckets)
	}
	t.Logf("xla: %d log-prob graphs for lengths 2..64; first calls %v in all (compile + run), second calls %v: about %v to compile one",
		len(buckets), compile.Round(time.Millisecond), rerun.Round(time.Millisecond), ((compile - rerun) / time.Duration(len(buckets))).Round(time.Millisecond))
	// Rows: each batch size is its own graph unless the caller buckets rows
	// (RowBucket); logged, so a change that buckets them shows here.
	before := m.graphs.Shapes("logprobs")
	for B := 1; B <= 8; B++ {
		rows := make([][]int32, B)
		for i := range rows {
			rows[i] = []int32{1, 2, 3, 4}
		}
		if _, err := m.LogProbs(ctx, rows); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("xla: batches of 1..8 rows of length 4 compiled %d more log-prob graphs", m.graphs.Shapes("logprobs")-before)
}
