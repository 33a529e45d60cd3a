package model

import (
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive
	"github.com/gomlx/gomlx/core/tensors"
)

// What model's external tests (package model_test, which load their
// fixtures through model/hf) need of the package's insides.

// InvFreq is invFreq, the rotary frequencies.
func (c Config) InvFreq() []float64 { return c.invFreq() }

// Logits builds the forward pass on weight nodes params (in Specs order)
// and tokens [B, T]: the input embeddings x [B, T, D], to differentiate
// against, and the head's logits [B, T, V].
func (m *Model) Logits(params []*Node, tokens *Node) (x, logits *Node) {
	w := m.bind(params)
	x = embedTokens(w, tokens)
	return x, headLogits(w, forward(m.Config, w, x, sequenceInputs(m.Config, tokens), nil))
}

// BiasedLlama is biasedLlama, Llama with attention_bias and mlp_bias.
func BiasedLlama() Config { return biasedLlama() }

// Reordered is m with its weights listed in another order (perm[i] is the
// old index of new entry i), holding copies of the same values.
func (m *Model) Reordered(perm []int) *Model {
	data := m.ParamData()
	r := &Model{Config: m.Config, backend: m.backend, graphs: NewGraphs(0)}
	for _, i := range perm {
		p := m.specs[i]
		r.specs = append(r.specs, p)
		r.dtypes = append(r.dtypes, m.dtypes[i])
		r.params = append(r.params, tensors.FromFlatDataAndDimensions(data[i], p.Shape...))
	}
	return r
}
