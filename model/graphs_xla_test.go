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
// compile one graph per Bucket length (16, 32, 48, 64), batches of 1..8
// rows one per RowBucket count, and the log says what a compile costs on
// this plugin: a shape's first call (compile and run) against its second
// (run).
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
	// Rows: on XLA the model pads a call's rows to a RowBucket count, so
	// batches of 1..8 rows compile one graph per bucket (1, 2, 3, 4, 6, 8;
	// 1 row of this length is compiled above), whatever row counts callers
	// pass.
	if !m.rowBuckets {
		t.Fatal("the model does not bucket rows on XLA")
	}
	before := m.graphs.Shapes("logprobs")
	var rowBuckets []int
	for B := 1; B <= 8; B++ {
		rows := make([][]int32, B)
		for i := range rows {
			rows[i] = []int32{1, 2, 3, 4}
		}
		if _, err := m.LogProbs(ctx, rows); err != nil {
			t.Fatal(err)
		}
		if bk := RowBucket(B); bk > 1 && !slices.Contains(rowBuckets, bk) {
			rowBuckets = append(rowBuckets, bk)
		}
	}
	if got := m.graphs.Shapes("logprobs") - before; got != len(rowBuckets) {
		t.Errorf("batches of 1..8 rows of length 4 compiled %d more log-prob graphs, want %d (one per row bucket %v)", got, len(rowBuckets), rowBuckets)
	}
}

// TestXLAForwardRowsBucketed: on XLA every forward function (log-probs,
// vocabulary-chunked targets, distributions, shared distributions, and
// the scoring head's scores, embedding gradient and embedding scores)
// compiles graphs only for RowBucket row counts, whatever count its
// caller passes (5, 9 and 13 here, none a bucket: each forward function's
// first compile takes seconds on the CPU plugin, so three counts, not
// TestForwardRowsBucketed's 1..13 on the Go backend with the padding
// forced on).
func TestXLAForwardRowsBucketed(t *testing.T) {
	b, err := EnvBackend()
	if err != nil || b.Name != "xla" {
		t.Skipf("not on XLA: set %s=xla:/abs/path/plugin.so (make test-xla does)", BackendEnv)
	}
	lm, err := New(Tiny(40), 5)
	if err != nil {
		t.Fatal(err)
	}
	sm := scoringModel(t)
	for _, n := range []int{5, 9, 13} {
		runForwards(t, lm, sm, n)
	}
	checkBucketedRows(t, lm)
	checkBucketedRows(t, sm)
	t.Logf("xla: row counts 5, 9 and 13 compiled log-prob graphs for rows %v", compiledRows(t, lm.graphs, "logprobs"))
}
