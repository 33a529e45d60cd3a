package model

import (
	"context"
	"slices"
	"strings"
	"testing"

	. "github.com/gomlx/gomlx/core/graph" //nolint:revive
	"github.com/gomlx/gomlx/core/tensors"
)

// reordered is m with its weights listed in another order (perm[i] is the
// old index of new entry i), holding copies of the same values.
func reordered(t *testing.T, m *Model, perm []int) *Model {
	t.Helper()
	data := m.ParamData()
	r := &Model{Config: m.Config, backend: m.backend, execs: map[string]*Exec{}}
	for _, i := range perm {
		p := m.specs[i]
		r.specs = append(r.specs, p)
		r.dtypes = append(r.dtypes, m.dtypes[i])
		r.params = append(r.params, tensors.FromFlatDataAndDimensions(data[i], p.Shape...))
	}
	return r
}

// TestWeightsBoundByName: graphs find each weight by its Hugging Face name,
// so listing the weights in another order (gate and up swapped, which have
// the same shape; or everything reversed) changes neither the outputs nor
// a training step. Binding by position, as credo did before, gets the
// swap wrong with no error.
func TestWeightsBoundByName(t *testing.T) {
	ctx := context.Background()
	c := biasedLlama()
	c.NumHiddenLayers = 2
	m, err := New(c, 9)
	if err != nil {
		t.Fatal(err)
	}
	idx := func(name string) int {
		return slices.IndexFunc(m.specs, func(p ParamSpec) bool { return p.Name == name })
	}
	swap := make([]int, len(m.specs))
	reverse := make([]int, len(m.specs))
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
	tr, _ := NewTrainer(m, DefaultAdamW(), CrossEntropy{})
	if _, err := tr.Step(ctx, seqs, TokenInputs{Mask: mask}, 1e-2); err != nil {
		t.Fatal(err)
	}
	trained := map[string][]float32{}
	for i, d := range m.ParamData() {
		trained[m.specs[i].Name] = d
	}
	for name, perm := range map[string][]int{"gate and up swapped": swap, "reversed": reverse} {
		// r starts from m's initial weights: rebuild them from the seed.
		m0, _ := New(c, 9)
		r := reordered(t, m0, perm)
		got, err := r.LogProbs(ctx, seqs)
		if err != nil {
			t.Fatal(err)
		}
		for i := range want {
			if !slices.Equal(got[i], want[i]) {
				t.Errorf("%s: log-probs differ", name)
			}
		}
		rt, _ := NewTrainer(r, DefaultAdamW(), CrossEntropy{})
		if _, err := rt.Step(ctx, seqs, TokenInputs{Mask: mask}, 1e-2); err != nil {
			t.Fatal(err)
		}
		for i, d := range r.ParamData() {
			if !slices.Equal(d, trained[r.specs[i].Name]) {
				t.Errorf("%s: %s differs after a training step", name, r.specs[i].Name)
			}
		}
		if e, err := r.EmbeddingRow(3); err != nil || !slices.Equal(e, trained["model.embed_tokens.weight"][3*c.HiddenSize:4*c.HiddenSize]) {
			t.Errorf("%s: EmbeddingRow reads the wrong tensor", name)
		}
	}
}

// TestBindWeightsRejects: a missing, misshapen or extra weight is named
// when the graph is built, never bound to the wrong role.
func TestBindWeightsRejects(t *testing.T) {
	m, _ := New(Tiny(40), 1)
	build := func(specs []ParamSpec) error {
		_, err := NewExec(m.backend, func(inputs []*Node) *Node {
			return bindByName(m.Config, specs, inputs).embed
		})
		if err != nil {
			return err
		}
		var args []any
		for _, p := range specs {
			args = append(args, tensors.FromFlatDataAndDimensions(make([]float32, p.Size()), p.Shape...))
		}
		e, _ := NewExec(m.backend, func(inputs []*Node) *Node { return bindByName(m.Config, specs, inputs).embed })
		_, err = e.Call(args...)
		return err
	}
	specs := m.Config.Params()
	renamed := slices.Clone(specs)
	renamed[3].Name = "model.layers.0.self_attn.q_proj.bais"
	reshaped := slices.Clone(specs)
	reshaped[1].Shape = []int{16} // binds a [16] node where [32] is named
	extra := append(slices.Clone(specs), ParamSpec{Name: "model.layers.0.mlp.extra", Shape: []int{2}})
	for _, tc := range []struct {
		name  string
		specs []ParamSpec
		want  string
	}{
		{"misspelled", renamed, "no parameter model.layers.0.self_attn.q_proj.bias"},
		{"extra", extra, "model.layers.0.mlp.extra not used by the graph"},
	} {
		if err := build(tc.specs); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
	// A node whose shape is not its spec's: bind the right specs to nodes
	// of reshaped's shapes.
	e, _ := NewExec(m.backend, func(inputs []*Node) *Node { return bindByName(m.Config, specs, inputs).embed })
	var args []any
	for _, p := range reshaped {
		args = append(args, tensors.FromFlatDataAndDimensions(make([]float32, p.Size()), p.Shape...))
	}
	if _, err := e.Call(args...); err == nil || !strings.Contains(err.Error(), "model.layers.0.input_layernorm.weight has shape [16], want [32]") {
		t.Errorf("misshapen: %v", err)
	}
}
