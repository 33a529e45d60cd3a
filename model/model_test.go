package model

import (
	"context"
	"slices"
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

// TestWeightSeamsReject: FromWeights and ReplaceWeights, the seams hf and
// optim build on, refuse weights that do not fit the config with an error
// naming what is wrong, and leave the model as it was.
func TestWeightSeamsReject(t *testing.T) {
	c := Tiny(40)
	m, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	data := m.ParamData()
	for _, tc := range []struct {
		name   string
		data   [][]float32
		dtypes []string
		want   string
	}{
		{"missing tensor", data[1:], nil, "tensors and 0 dtypes for"},
		{"dtype count", data, []string{"F32"}, "1 dtypes for"},
		{"short tensor", append([][]float32{data[0][1:]}, data[1:]...), nil, "tensor model.embed_tokens.weight: 1279 values for shape [40 32]"},
		{"storage dtype", data, slices.Repeat([]string{"F64"}, len(data)), `storage dtype "F64" is not supported`},
	} {
		if _, err := FromWeights(c, tc.data, tc.dtypes); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("FromWeights, %s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
	if _, err := FromWeights(Config{}, nil, nil); err == nil || !strings.Contains(err.Error(), "invalid model config") {
		t.Errorf("FromWeights of an empty config: %v", err)
	}
	ws := m.Weights()
	if err := m.ReplaceWeights(ws[1:]); err == nil || !strings.Contains(err.Error(), "tensors for") {
		t.Errorf("ReplaceWeights with a tensor missing: %v", err)
	}
	swapped := slices.Clone(ws)
	swapped[0], swapped[1] = ws[1], ws[0]
	if err := m.ReplaceWeights(swapped); err == nil || !strings.Contains(err.Error(), "tensor model.embed_tokens.weight has shape [32], want [40 32]") {
		t.Errorf("ReplaceWeights with misshapen tensors: %v", err)
	}
	for i, d := range m.ParamData() {
		if !slices.Equal(d, data[i]) {
			t.Fatalf("a refused replacement changed %s", m.Specs()[i].Name)
		}
	}
}
