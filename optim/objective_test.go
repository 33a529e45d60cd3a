package optim

import (
	"context"
	"math"
	"testing"

	"github.com/credo-rl/credo/model"
)

// TestBinaryCrossEntropyLearns: a scoring model learns to tell two token
// patterns apart, and its loss starts near ln 2.
func TestBinaryCrossEntropyLearns(t *testing.T) {
	c := model.Tiny(20)
	c.NumLabels = 1
	m, err := model.New(c, 4)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewUpdater(m, DefaultAdamW(), CrossEntropy{}); err == nil {
		t.Fatal("a language-model objective was accepted for a scoring model")
	}
	tr, err := NewUpdater(m, DefaultAdamW(), BinaryCrossEntropy{})
	if err != nil {
		t.Fatal(err)
	}
	// Label 1 at the last token of sequences containing token 3, else 0.
	seqs := [][]int32{{1, 2, 3, 4}, {1, 2, 5, 4}, {3, 6, 7, 4}, {8, 6, 7, 4}}
	labels := [][]float32{{0, 0, 0, 1}, {0, 0, 0, 0}, {0, 0, 0, 1}, {0, 0, 0, 0}}
	weights := [][]float32{{0, 0, 0, 1}, {0, 0, 0, 1}, {0, 0, 0, 1}, {0, 0, 0, 1}}
	var first, last StepStats
	for i := range 60 {
		st, err := tr.Step(context.Background(), seqs, TokenInputs{Mask: weights, Label: labels}, 1e-2)
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
