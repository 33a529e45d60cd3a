package model

import (
	"context"
	"math"
	"strconv"
	"strings"
	"testing"
)

// rowSeqs is n sequences of 2 to 12 tokens below vocab, varied per row.
func rowSeqs(n, vocab int) [][]int32 {
	seqs := make([][]int32, n)
	for i := range seqs {
		seqs[i] = make([]int32, 2+(5*i+3)%11)
		for t := range seqs[i] {
			seqs[i][t] = int32((7*i + 3*t + 1) % vocab)
		}
	}
	return seqs
}

// sameBits fails unless got and want hold the same float32 values bit for
// bit, row for row.
func sameBits(t *testing.T, what string, got, want [][]float32) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d rows, want %d", what, len(got), len(want))
	}
	for i := range want {
		if len(got[i]) != len(want[i]) {
			t.Fatalf("%s: row %d has %d values, want %d", what, i, len(got[i]), len(want[i]))
		}
		for j := range want[i] {
			if math.Float32bits(got[i][j]) != math.Float32bits(want[i][j]) {
				t.Fatalf("%s [%d][%d]: %v padded, %v unpadded", what, i, j, got[i][j], want[i][j])
			}
		}
	}
}

// sameBits3 is sameBits over [N][T][K] outputs.
func sameBits3(t *testing.T, what string, got, want [][][]float32) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d sequences, want %d", what, len(got), len(want))
	}
	for i := range want {
		sameBits(t, what+" sequence "+strconv.Itoa(i), got[i], want[i])
	}
}

// both runs f with the rows padded to RowBucket counts, as on XLA, then
// unpadded, as on the Go backend, and leaves m as it found it.
func both[R any](m *Model, f func() (R, error)) (padded, exact R, err error) {
	defer func(was bool) { m.rowBuckets = was }(m.rowBuckets)
	m.rowBuckets = true
	if padded, err = f(); err != nil {
		return padded, exact, err
	}
	m.rowBuckets = false
	exact, err = f()
	return padded, exact, err
}

// scoringModel is a small model with a scoring head (num_labels 1).
func scoringModel(t *testing.T) *Model {
	t.Helper()
	c := Tiny(40)
	c.NumLabels = 1
	m, err := New(c, 3)
	if err != nil {
		t.Fatal(err)
	}
	randomize(m, 0.3)
	return m
}

// TestPaddedRowsAreExact: on XLA every forward function pads its rows to a
// RowBucket count (issue 50: callers whose row counts vary compiled a
// graph per count), and the padding rows do not reach the real ones: run
// here on the Go backend with the padding on, the real rows' outputs are
// bit for bit those of a call on the real rows alone, for row counts that
// are a bucket (4) and that are not (5 → 6, 9 → 12, 17: 16 + 1 in
// Targets). At this size every product takes the same kernel padded or
// not; one that crosses the backend's small/large threshold sums in
// another order (rowBucket).
func TestPaddedRowsAreExact(t *testing.T) {
	ctx := context.Background()
	lm, err := New(Tiny(40), 5)
	if err != nil {
		t.Fatal(err)
	}
	randomize(lm, 0.3)
	sm := scoringModel(t)
	for _, n := range []int{4, 5, 9, 17} {
		seqs := rowSeqs(n, 40)
		from := make([]int, n)
		for i, s := range seqs {
			from[i] = 1 + i%(len(s)-1)
		}
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			p, e, err := both(lm, func() ([][]float32, error) { return lm.LogProbs(ctx, seqs) })
			if err != nil {
				t.Fatal(err)
			}
			sameBits(t, "LogProbs", p, e)

			type targets struct {
				lp     [][]float32
				greedy [][]int32
			}
			pt, et, err := both(lm, func() (targets, error) {
				lp, g, err := lm.targets(ctx, seqs, 16) // three vocabulary chunks, the last overlapping
				return targets{lp, g}, err
			})
			if err != nil {
				t.Fatal(err)
			}
			sameBits(t, "Targets log-probs", pt.lp, et.lp)
			for i := range et.greedy {
				for k := range et.greedy[i] {
					if pt.greedy[i][k] != et.greedy[i][k] {
						t.Fatalf("Targets greedy [%d][%d]: %d padded, %d unpadded", i, k, pt.greedy[i][k], et.greedy[i][k])
					}
				}
			}

			pd, ed, err := both(lm, func() ([][][]float32, error) { return lm.Distributions(ctx, seqs, from) })
			if err != nil {
				t.Fatal(err)
			}
			sameBits3(t, "Distributions", pd, ed)

			pc, ec, err := both(sm, func() ([][]float32, error) { return sm.Scores(ctx, seqs) })
			if err != nil {
				t.Fatal(err)
			}
			sameBits(t, "Scores", pc, ec)

			sel := make([][]float32, n)
			for i, q := range seqs {
				sel[i] = make([]float32, len(q))
				for k := range sel[i] {
					sel[i][k] = float32((i+k)%3) / 2
				}
			}
			type embGrad struct {
				scores    [][]float32
				emb, grad [][][]float32
			}
			pg, eg, err := both(sm, func() (embGrad, error) {
				sc, emb, grad, err := sm.EmbeddingGradient(ctx, seqs, sel)
				return embGrad{sc, emb, grad}, err
			})
			if err != nil {
				t.Fatal(err)
			}
			sameBits(t, "EmbeddingGradient scores", pg.scores, eg.scores)
			sameBits3(t, "EmbeddingGradient embeddings", pg.emb, eg.emb)
			sameBits3(t, "EmbeddingGradient gradient", pg.grad, eg.grad)

			pe, ee, err := both(sm, func() ([][]float32, error) { return sm.ScoreEmbeddings(ctx, eg.emb) })
			if err != nil {
				t.Fatal(err)
			}
			sameBits(t, "ScoreEmbeddings", pe, ee)
		})
	}
}

// compiledRows is the row count (the first argument's leading dimension)
// of every input shape name's Exec in use has compiled, read from its
// ShapeKey: "[][]int32[6,16];" for a row set, "(Float32)[6 15 32];…" for
// a tensor.
func compiledRows(t *testing.T, g *Graphs, name string) []int {
	t.Helper()
	g.mu.Lock()
	defer g.mu.Unlock()
	c, ok := g.execs[name]
	if !ok {
		return nil
	}
	var rows []int
	for key := range c.shapes {
		first, _, _ := strings.Cut(key, ";")
		i := strings.LastIndexByte(first, '[')
		digits := strings.FieldsFunc(first[i+1:], func(r rune) bool { return r < '0' || r > '9' })
		if i < 0 || len(digits) == 0 {
			t.Fatalf("%s: cannot read the rows of shape key %q", name, key)
		}
		n, err := strconv.Atoi(digits[0])
		if err != nil {
			t.Fatalf("%s: shape key %q: %v", name, key, err)
		}
		rows = append(rows, n)
	}
	return rows
}

// forwardGraphs names each forward function's graphs, as m.run registers
// them.
var forwardGraphs = []string{"logprobs", "targets-hidden", "targets-chunk-16", "probs", "shared", "scores", "embgrad", "scoreemb"}

// checkBucketedRows fails when a forward graph of m compiled a row count
// that is not a RowBucket count.
func checkBucketedRows(t *testing.T, m *Model) {
	t.Helper()
	for _, name := range forwardGraphs {
		for _, r := range compiledRows(t, m.graphs, name) {
			if RowBucket(r) != r {
				t.Errorf("%s compiled a graph for %d rows, not a RowBucket count (%d)", name, r, RowBucket(r))
			}
		}
	}
}

// runForwards calls every forward function of lm (a language model) and
// sm (a scoring model) on n sequences.
func runForwards(t *testing.T, lm, sm *Model, n int) {
	t.Helper()
	ctx := context.Background()
	seqs := rowSeqs(n, lm.Config.VocabSize)
	from := make([]int, n)
	s := Shared{Prefixes: [][]int32{{1, 2, 3}}}
	for i := range seqs {
		from[i] = 1
		s.Owner = append(s.Owner, 0)
		s.Suffixes = append(s.Suffixes, seqs[i])
	}
	sfrom := make([]int, n)
	for i := range sfrom {
		sfrom[i] = 4
	}
	if _, err := lm.LogProbs(ctx, seqs); err != nil {
		t.Fatal(err)
	}
	if _, _, err := lm.targets(ctx, seqs, 16); err != nil {
		t.Fatal(err)
	}
	if _, err := lm.Distributions(ctx, seqs, from); err != nil {
		t.Fatal(err)
	}
	if _, err := lm.SharedDistributions(ctx, s, sfrom); err != nil {
		t.Fatal(err)
	}
	if sm == nil {
		return
	}
	seqs = rowSeqs(n, sm.Config.VocabSize)
	if _, err := sm.Scores(ctx, seqs); err != nil {
		t.Fatal(err)
	}
	sel := make([][]float32, n)
	for i := range sel {
		sel[i] = make([]float32, len(seqs[i]))
	}
	_, emb, _, err := sm.EmbeddingGradient(ctx, seqs, sel)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sm.ScoreEmbeddings(ctx, emb); err != nil {
		t.Fatal(err)
	}
}

// TestForwardRowsBucketed: with rows bucketed (XLA's setting, forced here
// on the Go backend), whatever row count a caller passes (1 to 13 here),
// the forward functions compile graphs only for RowBucket counts: a caller
// cannot make XLA compile a graph per count. Distributions' calls, split
// to bound their tables' memory, are of a RowBucket count, so padding
// keeps them within the bound. The Go backend itself does not pad.
func TestForwardRowsBucketed(t *testing.T) {
	lm, err := New(Tiny(40), 5)
	if err != nil {
		t.Fatal(err)
	}
	sm := scoringModel(t)
	if want := lm.info.Name != "go"; lm.rowBuckets != want || sm.rowBuckets != want {
		t.Errorf("on the %s backend rows bucketed %v, want %v", lm.info.Name, lm.rowBuckets, want)
	}
	lm.rowBuckets, sm.rowBuckets = true, true
	for n := 1; n <= 13; n++ {
		runForwards(t, lm, sm, n)
	}
	checkBucketedRows(t, lm)
	checkBucketedRows(t, sm)
	if got := len(compiledRows(t, lm.graphs, "logprobs")); got > 8*2 {
		t.Errorf("1..13 rows compiled %d log-prob graphs, want at most 16 (8 row buckets × 2 lengths)", got)
	}

	seqs := rowSeqs(8, 40)
	T := 0
	for _, s := range seqs {
		T = max(T, len(s))
	}
	per := 2 * 4 * Bucket(T) * lm.Config.VocabSize // one row's tables
	for _, c := range []struct{ fit, want int }{{0, 1}, {1, 1}, {4, 4}, {5, 4}, {7, 6}, {11, 8}, {13, 12}, {23, 16}, {24, 24}} {
		lm.rowBuckets = true
		if got := lm.tableRows(seqs, c.fit*per); got != c.want {
			t.Errorf("tableRows with room for %d rows = %d, want %d (the largest RowBucket count that fits)", c.fit, got, c.want)
		}
		lm.rowBuckets = false
		if got := lm.tableRows(seqs, c.fit*per); got != max(c.fit, 1) {
			t.Errorf("tableRows unbucketed with room for %d rows = %d, want %d", c.fit, got, max(c.fit, 1))
		}
	}
}
