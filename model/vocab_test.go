package model

import (
	"context"
	"math"
	"testing"
)

// TestTargetsChunkedEqualsWhole: the vocabulary-chunked target log-probs
// and greedy tokens equal the whole-table ones (LogProbs, the arg-max of
// Distributions) for chunks that divide the vocabulary, chunks whose last
// one overlaps the one before, one chunk, and more rows than a row chunk.
func TestTargetsChunkedEqualsWhole(t *testing.T) {
	ctx := context.Background()
	m, err := New(Tiny(40), 5)
	if err != nil {
		t.Fatal(err)
	}
	seqs := make([][]int32, chunkRows+3)
	from := make([]int, len(seqs))
	for i := range seqs {
		seqs[i] = make([]int32, 2+(5*i)%19)
		for j := range seqs[i] {
			seqs[i][j] = int32((11*i + 7*j + j*j) % 40)
		}
		from[i] = 1
	}
	want, err := m.LogProbs(ctx, seqs)
	if err != nil {
		t.Fatal(err)
	}
	dist, err := m.Distributions(ctx, seqs, from)
	if err != nil {
		t.Fatal(err)
	}
	for _, chunk := range []int{8, 7, 16, 40, 1000} {
		lp, greedy, err := m.targets(ctx, seqs, chunk)
		if err != nil {
			t.Fatal(err)
		}
		for i := range seqs {
			if len(lp[i]) != len(want[i]) || len(greedy[i]) != len(want[i]) {
				t.Fatalf("chunk %d, sequence %d: %d log-probs, %d greedy, want %d", chunk, i, len(lp[i]), len(greedy[i]), len(want[i]))
			}
			for k := range want[i] {
				if d := math.Abs(float64(lp[i][k] - want[i][k])); d > 2e-5 {
					t.Errorf("chunk %d: logp[%d][%d] %v, whole table %v", chunk, i, k, lp[i][k], want[i][k])
				}
				best := 0
				for v, p := range dist[i][k] {
					if p > dist[i][k][best] {
						best = v
					}
				}
				if greedy[i][k] != int32(best) {
					t.Errorf("chunk %d: greedy[%d][%d] %d, whole table %d", chunk, i, k, greedy[i][k], best)
				}
			}
		}
	}
	if _, _, err := m.Targets(ctx, [][]int32{{1, 40}}); err == nil {
		t.Error("a token outside the vocabulary was accepted")
	}
}

// TestDistributionsByRows: distributions computed a row at a time equal
// those of one call over the whole batch.
func TestDistributionsByRows(t *testing.T) {
	ctx := context.Background()
	m, err := New(Tiny(40), 6)
	if err != nil {
		t.Fatal(err)
	}
	seqs := [][]int32{{1, 2, 3, 4}, {5, 6, 7, 8, 9, 10, 11}, {12, 13}}
	from := []int{2, 3, 1}
	whole, err := m.distributionsIn(ctx, seqs, from, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	byRow, err := m.distributionsIn(ctx, seqs, from, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i := range whole {
		if len(byRow[i]) != len(seqs[i])-from[i] || len(byRow[i]) != len(whole[i]) {
			t.Fatalf("sequence %d: %d rows by row, %d whole, want %d", i, len(byRow[i]), len(whole[i]), len(seqs[i])-from[i])
		}
		for r := range whole[i] {
			for v := range whole[i][r] {
				if d := math.Abs(float64(byRow[i][r][v] - whole[i][r][v])); d > 1e-6 {
					t.Fatalf("p[%d][%d][%d] %v by row, %v whole", i, r, v, byRow[i][r][v], whole[i][r][v])
				}
			}
		}
	}
}
