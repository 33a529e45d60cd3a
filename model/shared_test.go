package model

import (
	"context"
	"math"
	"reflect"
	"sync"
	"testing"
)

// TestSharedDistributionsEqualWhole: running each prefix once and its
// suffixes as a cache extension gives the distributions of a whole pass
// over the concatenated sequences, for every architecture variant, with
// prefixes and suffixes of different lengths and a row split by the
// memory bound.
func TestSharedDistributionsEqualWhole(t *testing.T) {
	qwen3 := Tiny(40)
	qwen3.ModelType, qwen3.HeadDim, qwen3.TieWordEmbeddings = "qwen3", 16, true
	for name, c := range map[string]Config{"qwen2": Tiny(40), "qwen3": qwen3, "llama biases": biasedLlama()} {
		t.Run(name, func(t *testing.T) {
			m, err := New(c, 5)
			if err != nil {
				t.Fatal(err)
			}
			randomize(m, 0.3)
			s := Shared{
				Prefixes: [][]int32{{1, 2, 3, 4, 5, 6, 7}, {8, 9}, {10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27}},
				Owner:    []int{0, 2, 0, 1, 2},
				Suffixes: [][]int32{{30, 31, 32}, {33}, {34, 35, 36, 37, 38, 39, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}, {14, 15, 16, 17}, {18, 19, 20, 21, 22}},
			}
			from := []int{8, 19, 7 + 5, 3, 18 + 2}
			sharedEqualsWhole(t, m, s, from)
		})
	}
}

// TestSharedDistributionsRejects: a start inside the prefix (its
// prediction was made in the prefix, which yields none), an owner out of
// range and mismatched lengths are errors, not panics.
func TestSharedDistributionsRejects(t *testing.T) {
	m, err := New(Tiny(40), 1)
	if err != nil {
		t.Fatal(err)
	}
	ok := Shared{Prefixes: [][]int32{{1, 2, 3}}, Owner: []int{0}, Suffixes: [][]int32{{4, 5}}}
	for name, c := range map[string]struct {
		s    Shared
		from []int
	}{
		"start in prefix": {ok, []int{3}},
		"start past end":  {ok, []int{6}},
		"owner":           {Shared{Prefixes: ok.Prefixes, Owner: []int{1}, Suffixes: ok.Suffixes}, []int{4}},
		"lengths":         {Shared{Prefixes: ok.Prefixes, Owner: []int{0, 0}, Suffixes: ok.Suffixes}, []int{4}},
		"token":           {Shared{Prefixes: ok.Prefixes, Owner: []int{0}, Suffixes: [][]int32{{4, 99}}}, []int{4}},
		"empty suffix":    {Shared{Prefixes: ok.Prefixes, Owner: []int{0}, Suffixes: [][]int32{{}}}, []int{4}},
	} {
		if _, err := m.SharedDistributions(context.Background(), c.s, c.from); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := m.SharedDistributions(context.Background(), ok, []int{4}); err != nil {
		t.Errorf("a valid batch: %v", err)
	}
}

// TestDistributionRowsAreSeparate: the rows Distributions and
// SharedDistributions return share one allocation, each capped at its own
// end, so appending to one row never overwrites the next.
func TestDistributionRowsAreSeparate(t *testing.T) {
	ctx := context.Background()
	m, err := New(Tiny(40), 5)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := m.Distributions(ctx, [][]int32{{1, 2, 3, 4}}, []int{2})
	if err != nil {
		t.Fatal(err)
	}
	shared, err := m.SharedDistributions(ctx, Shared{Prefixes: [][]int32{{1, 2}}, Owner: []int{0}, Suffixes: [][]int32{{3, 4, 5}}}, []int{3})
	if err != nil {
		t.Fatal(err)
	}
	for name, rows := range map[string][][]float32{"Distributions": whole[0], "SharedDistributions": shared[0]} {
		if len(rows) != 2 {
			t.Fatalf("%s: %d rows, want 2", name, len(rows))
		}
		next := append([]float32(nil), rows[1]...)
		_ = append(rows[0], -1, -1, -1)
		for v := range next {
			if rows[1][v] != next[v] {
				t.Fatalf("%s: appending to row 0 changed row 1 at %d", name, v)
			}
		}
	}
}

// TestSharedDistributionsConcurrent: calls on a model whose weights were
// just set (still host-side) run at once, as rl's replay runs them, and
// agree exactly. (Before onDevice, about one such start in three failed:
// GoMLX saw a weight halfway to the device as having no data.)
func TestSharedDistributionsConcurrent(t *testing.T) {
	ctx := context.Background()
	m, err := New(Tiny(40), 5)
	if err != nil {
		t.Fatal(err)
	}
	s := Shared{Prefixes: [][]int32{{1, 2, 3, 4}}, Owner: []int{0, 0}, Suffixes: [][]int32{{5, 6, 7}, {8, 9}}}
	from := []int{5, 5}
	want, err := m.SharedDistributions(ctx, s, from)
	if err != nil {
		t.Fatal(err)
	}
	for trial := range 20 {
		if err := m.SetParamData(m.ParamData()); err != nil { // host-side weights again
			t.Fatal(err)
		}
		const calls = 4
		got := make([][][][]float32, calls)
		errs := make([]error, calls)
		var wg sync.WaitGroup
		for c := range calls {
			wg.Go(func() { got[c], errs[c] = m.SharedDistributions(ctx, s, from) })
		}
		wg.Wait()
		for c := range calls {
			if errs[c] != nil {
				t.Fatalf("trial %d, call %d: %v", trial, c, errs[c])
			}
			if !reflect.DeepEqual(got[c], want) {
				t.Fatalf("trial %d, call %d: distributions differ from a lone call's", trial, c)
			}
		}
	}
}

// TestSharedDistributionsPartialPrefixes: sequences that extend only the
// start of their prefix (Shared.Use) get the distributions of whole passes
// over that start and their suffix, next to sequences extending all of it.
func TestSharedDistributionsPartialPrefixes(t *testing.T) {
	ctx := context.Background()
	m, err := New(biasedLlama(), 5)
	if err != nil {
		t.Fatal(err)
	}
	randomize(m, 0.3)
	s := Shared{
		Prefixes: [][]int32{{1, 2, 3, 4, 5, 6, 7, 8, 9}, {10, 11, 12}},
		Owner:    []int{0, 0, 0, 1, 1},
		Suffixes: [][]int32{{20, 21, 22}, {23, 24, 25, 26, 27, 28}, {29}, {30, 31}, {32, 33, 34}},
		Use:      []int{9, 4, 1, 3, 2},
	}
	from := []int{10, 6, 2, 4, 3}
	sharedEqualsWhole(t, m, s, from)
	for _, bad := range [][]int{{9, 4, 0, 3, 2}, {9, 4, 1, 4, 2}, {9, 4}} {
		b := s
		b.Use = bad
		if _, err := m.SharedDistributions(ctx, b, from); err == nil {
			t.Errorf("Use %v: no error", bad)
		}
	}
}

// sharedEqualsWhole checks SharedDistributions on s against Distributions
// on the whole sequences (each its prefix's used start, then its suffix):
// within 1e-5 in every probability.
func sharedEqualsWhole(t *testing.T, m *Model, s Shared, from []int) {
	t.Helper()
	ctx := context.Background()
	seqs := make([][]int32, len(s.Suffixes))
	for i, x := range s.Suffixes {
		seqs[i] = append(append([]int32(nil), s.Prefixes[s.Owner[i]][:s.used(i)]...), x...)
	}
	want, err := m.Distributions(ctx, seqs, from)
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.SharedDistributions(ctx, s, from)
	if err != nil {
		t.Fatal(err)
	}
	worst := 0.0
	for i := range want {
		if len(got[i]) != len(want[i]) {
			t.Fatalf("sequence %d: %d positions, want %d", i, len(got[i]), len(want[i]))
		}
		for r := range want[i] {
			for v := range want[i][r] {
				worst = math.Max(worst, math.Abs(float64(got[i][r][v]-want[i][r][v])))
			}
		}
	}
	t.Logf("max |shared − whole| probability difference: %.2e", worst)
	if worst > 1e-5 {
		t.Errorf("shared distributions differ from whole passes by %.2e", worst)
	}
}

// TestRowBucket: row counts round up to 1, 2, 3, 4, 6, 8, 12, 16, 24, …
func TestRowBucket(t *testing.T) {
	for _, c := range []struct{ n, want int }{
		{0, 1}, {1, 1}, {2, 2}, {3, 3}, {4, 4}, {5, 6}, {6, 6}, {7, 8}, {8, 8},
		{9, 12}, {12, 12}, {13, 16}, {16, 16}, {17, 24}, {25, 32}, {33, 48}, {100, 128},
	} {
		if got := RowBucket(c.n); got != c.want {
			t.Errorf("RowBucket(%d) = %d, want %d", c.n, got, c.want)
		}
	}
}

// TestSharedPastTheGraphLimit: replay's calls vary in rows, prefixes and
// lengths, and once they had compiled GoMLX's limit of 256 graphs the
// next shape failed (it ended an ifeval comparison at its 23rd mrtpo
// step). With the limit set to 2, calls of 1 to 7 rows (5 padded row
// counts) and two lengths still equal whole passes, and the Exec in use
// holds at most 2 shapes.
func TestSharedPastTheGraphLimit(t *testing.T) {
	m, err := New(Tiny(40), 5)
	if err != nil {
		t.Fatal(err)
	}
	randomize(m, 0.3)
	m.graphs = NewGraphs(2)
	for _, long := range []bool{false, true} {
		for rows := 1; rows <= 7; rows++ {
			s := Shared{Prefixes: [][]int32{{1, 2, 3, 4, 5}, {6, 7, 8}}}
			var from []int
			for i := range rows {
				suffix := []int32{int32(10 + i), int32(20 + i)}
				if long {
					suffix = append(suffix, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 1, 2, 3, 4, 5, 6)
				}
				s.Owner = append(s.Owner, i%2)
				s.Suffixes = append(s.Suffixes, suffix)
				from = append(from, len(s.Prefixes[i%2])+1)
			}
			sharedEqualsWhole(t, m, s, from)
		}
	}
	if n := m.graphs.Shapes("shared"); n > 2 {
		t.Errorf("the shared graph's Exec holds %d shapes, limit 2", n)
	}
}
