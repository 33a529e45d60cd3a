package model

import (
	"fmt"
	"slices"
	"strings"

	. "github.com/gomlx/gomlx/core/graph" //nolint:revive
	"github.com/gomlx/gomlx/core/tensors"
)

// Decoding multiplies a few dozen rows by each weight matrix per step.
// With PyTorch's [out, in] layout that is the backend's "transposed" dot
// product, whose large-matrix path packs the weight with a scalar strided
// copy on every call (a fifth of the 10M decode profile) and whose small
// path reduces horizontally for every output; with [in, out] it packs with
// vectorized code, and the small path runs 4×64 output tiles. So Prefill
// transposes the layers' matrices once per generation and Decode uses the
// copies. The head [V, D] is transposed to [D, V] too: a decode step's
// logits are its largest product ([B, D] × [D, V]; 28% of SmolLM2-135M's
// weights), and with [in, out] it takes the skinny path, which reads the
// head once and packs nothing. Training and scoring keep [out, in] (their
// weight gradients are laid out for it).

// isLayerMatrix says whether a parameter is one of the layers' linear
// weights (q, k, v, o, gate, up, down).
func isLayerMatrix(p ParamSpec) bool {
	return len(p.Shape) == 2 && strings.HasPrefix(p.Name, "model.layers.") && strings.HasSuffix(p.Name, "_proj.weight")
}

// decodeSpecs is specs with the layers' matrices transposed to [in, out].
func decodeSpecs(specs []ParamSpec) []ParamSpec {
	out := slices.Clone(specs)
	for i, p := range out {
		if isLayerMatrix(p) {
			out[i].Shape = []int{p.Shape[1], p.Shape[0]}
		}
	}
	return out
}

// transposedWeights returns the layers' matrices transposed, in specs
// order, then the head transposed to [D, V].
func (m *Model) transposedWeights() ([]*tensors.Tensor, error) {
	var args []any
	for i, p := range m.specs {
		if isLayerMatrix(p) {
			args = append(args, m.params[i])
		}
	}
	args = append(args, m.param(m.headName()))
	e, err := m.graphs.Exec("decode-weights", "the weights", func() (*Exec, error) {
		return NewExec(m.backend, func(inputs []*Node) []*Node {
			out := make([]*Node, len(inputs))
			for i, x := range inputs {
				out[i] = TransposeAllDims(x, 1, 0)
			}
			return out
		})
	})
	if err != nil {
		return nil, err
	}
	out, err := e.Call(args...)
	if err != nil {
		return nil, fmt.Errorf("transpose weights: %w", err)
	}
	return out, nil
}

// headName is the parameter the language-model head reads: the embedding
// table when tied.
func (m *Model) headName() string {
	if m.Config.TieWordEmbeddings {
		return "model.embed_tokens.weight"
	}
	return "lm_head.weight"
}

// decodeArgs are Decode's weight arguments: the model's parameters with
// the layers' matrices replaced by their transposed copies wT, then the
// transposed head (wT's last).
func (m *Model) decodeArgs(wT []*tensors.Tensor) []any {
	args := make([]any, len(m.params), len(m.params)+1)
	j := 0
	for i, p := range m.specs {
		if isLayerMatrix(p) {
			args[i] = wT[j]
			j++
		} else {
			args[i] = m.params[i]
		}
	}
	return append(args, wT[len(wT)-1])
}
