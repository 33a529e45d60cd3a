package model_test

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"github.com/credo-rl/credo/model/hf"
)

// TestScoreEmbeddingsMatchesTokens: scoring the embeddings of tokens gives
// the same scores as scoring the tokens.
func TestScoreEmbeddingsMatchesTokens(t *testing.T) {
	m, err := hf.Load(filepath.Join("testdata", "reference", "prm"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	seqs := [][]int32{{1, 5, 9, 3}, {2, 2, 7}}
	sel := [][]float32{{0, 1, 0, 1}, {1, 0, 1}}
	want, emb, _, err := m.EmbeddingGradient(ctx, seqs, sel)
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.ScoreEmbeddings(ctx, emb)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		for j := range want[i] {
			if d := math.Abs(float64(got[i][j] - want[i][j])); d > 1e-5 {
				t.Fatalf("score [%d][%d]: %g from embeddings, %g from tokens", i, j, got[i][j], want[i][j])
			}
		}
	}
	row, err := m.EmbeddingRow(5)
	if err != nil {
		t.Fatal(err)
	}
	for d, v := range row {
		if v != emb[0][1][d] {
			t.Fatalf("EmbeddingRow(5)[%d] = %g, the lookup gave %g", d, v, emb[0][1][d])
		}
	}
	if _, err := m.EmbeddingRow(int32(m.Config.VocabSize)); err == nil {
		t.Error("out-of-range embedding row accepted")
	}
	if mean := m.MeanEmbedding(); len(mean) != m.Config.HiddenSize {
		t.Errorf("mean embedding has %d values", len(mean))
	}
}
