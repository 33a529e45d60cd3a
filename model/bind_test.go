package model_test

import (
	"context"
	"slices"
	"testing"

	"github.com/credo-rl/credo/model"
	"github.com/credo-rl/credo/optim"
)

// TestWeightsBoundByName: graphs find each weight by its Hugging Face name,
// so listing the weights in another order (gate and up swapped, which have
// the same shape; or everything reversed) changes neither the outputs nor
// a training step. Binding by position, as credo did before, gets the
// swap wrong with no error.
func TestWeightsBoundByName(t *testing.T) {
	ctx := context.Background()
	c := model.BiasedLlama()
	c.NumHiddenLayers = 2
	m, err := model.New(c, 9)
	if err != nil {
		t.Fatal(err)
	}
	idx := func(name string) int {
		return slices.IndexFunc(m.Specs(), func(p model.ParamSpec) bool { return p.Name == name })
	}
	swap := make([]int, len(m.Specs()))
	reverse := make([]int, len(m.Specs()))
	for i := range swap {
		swap[i], reverse[i] = i, len(swap)-1-i
	}
	g, u := idx("model.layers.1.mlp.gate_proj.weight"), idx("model.layers.1.mlp.up_proj.weight")
	swap[g], swap[u] = u, g

	seqs := [][]int32{{1, 2, 3, 4, 5, 6, 7}, {8, 9, 10}}
	mask := [][]float32{{1, 1, 1, 1, 1, 1}, {1, 1}}
	want, err := m.LogProbs(ctx, seqs)
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := optim.NewUpdater(m, optim.DefaultAdamW(), optim.CrossEntropy{})
	if _, err := tr.Step(ctx, seqs, optim.TokenInputs{Mask: mask}, 1e-2); err != nil {
		t.Fatal(err)
	}
	trained := map[string][]float32{}
	for i, d := range m.ParamData() {
		trained[m.Specs()[i].Name] = d
	}
	for name, perm := range map[string][]int{"gate and up swapped": swap, "reversed": reverse} {
		// r starts from m's initial weights: rebuild them from the seed.
		m0, _ := model.New(c, 9)
		r := m0.Reordered(perm)
		got, err := r.LogProbs(ctx, seqs)
		if err != nil {
			t.Fatal(err)
		}
		for i := range want {
			if !slices.Equal(got[i], want[i]) {
				t.Errorf("%s: log-probs differ", name)
			}
		}
		rt, _ := optim.NewUpdater(r, optim.DefaultAdamW(), optim.CrossEntropy{})
		if _, err := rt.Step(ctx, seqs, optim.TokenInputs{Mask: mask}, 1e-2); err != nil {
			t.Fatal(err)
		}
		for i, d := range r.ParamData() {
			if !slices.Equal(d, trained[r.Specs()[i].Name]) {
				t.Errorf("%s: %s differs after a training step", name, r.Specs()[i].Name)
			}
		}
		if e, err := r.EmbeddingRow(3); err != nil || !slices.Equal(e, trained["model.embed_tokens.weight"][3*c.HiddenSize:4*c.HiddenSize]) {
			t.Errorf("%s: EmbeddingRow reads the wrong tensor", name)
		}
	}
}
