package model

import (
	"context"
	"strings"
	"testing"
)

func TestBadTokens(t *testing.T) {
	m, _ := New(Tiny(40), 1)
	ctx := context.Background()
	if _, err := m.LogProbs(ctx, [][]int32{{1, 40}}); err == nil || !strings.Contains(err.Error(), "outside the vocabulary") {
		t.Errorf("out-of-vocabulary token: %v", err)
	}
	long := make([]int32, m.Config.MaxPositionEmbeddings+1)
	if _, err := m.LogProbs(ctx, [][]int32{long}); err == nil || !strings.Contains(err.Error(), "context") {
		t.Errorf("too long: %v", err)
	}
	if _, err := m.LogProbs(ctx, nil); err == nil {
		t.Error("empty batch accepted")
	}
	if _, _, _, err := m.EmbeddingGradient(ctx, [][]int32{{1}}, [][]float32{{1}}); err == nil {
		t.Error("embedding gradient without a scoring head accepted")
	}
}
