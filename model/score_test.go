package model_test

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"github.com/credo-rl/credo/model"
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

// TestBinaryCrossEntropyLearns: a scoring model learns to tell two token
// patterns apart, and its loss starts near ln 2.
func TestBinaryCrossEntropyLearns(t *testing.T) {
	c := model.Tiny(20)
	c.NumLabels = 1
	m, err := model.New(c, 4)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := model.NewTrainer(m, model.DefaultAdamW(), model.CrossEntropy{}); err == nil {
		t.Fatal("a language-model objective was accepted for a scoring model")
	}
	tr, err := model.NewTrainer(m, model.DefaultAdamW(), model.BinaryCrossEntropy{})
	if err != nil {
		t.Fatal(err)
	}
	// Label 1 at the last token of sequences containing token 3, else 0.
	seqs := [][]int32{{1, 2, 3, 4}, {1, 2, 5, 4}, {3, 6, 7, 4}, {8, 6, 7, 4}}
	labels := [][]float32{{0, 0, 0, 1}, {0, 0, 0, 0}, {0, 0, 0, 1}, {0, 0, 0, 0}}
	weights := [][]float32{{0, 0, 0, 1}, {0, 0, 0, 1}, {0, 0, 0, 1}, {0, 0, 0, 1}}
	var first, last model.StepStats
	for i := range 60 {
		st, err := tr.Step(context.Background(), seqs, model.TokenInputs{Mask: weights, Label: labels}, 1e-2)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = st
		}
		last = st
	}
	if math.Abs(first.Loss-math.Ln2) > 0.1 {
		t.Errorf("first loss %.3f, want about ln 2", first.Loss)
	}
	if last.Loss > 0.05 || last.Metrics["accuracy"] != 1 || last.Metrics["scored"] != 4 {
		t.Errorf("after 60 steps: loss %.3f, metrics %v", last.Loss, last.Metrics)
	}
}
