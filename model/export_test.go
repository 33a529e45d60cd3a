package model

import . "github.com/gomlx/gomlx/core/graph" //nolint:revive

// What model's external tests (package model_test, which load their
// fixtures through model/hf) need of the package's insides.

// InvFreq is invFreq, the rotary frequencies.
func (c Config) InvFreq() []float64 { return c.invFreq() }

// ParamArgs is paramArgs, the weights as graph arguments.
func (m *Model) ParamArgs() []any { return m.paramArgs() }

// Logits builds the forward pass on weight nodes params (in Specs order)
// and tokens [B, T]: the input embeddings x [B, T, D], to differentiate
// against, and the head's logits [B, T, V].
func (m *Model) Logits(params []*Node, tokens *Node) (x, logits *Node) {
	w := m.bind(params)
	x = embedTokens(w, tokens)
	return x, headLogits(w, forward(m.Config, w, x, sequenceInputs(m.Config, tokens), nil))
}
