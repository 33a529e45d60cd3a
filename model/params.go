package model

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// ParamSpec names one weight tensor with its Hugging Face name and shape.
// Linear weights keep PyTorch's [out, in] layout, so checkpoints load
// without transposes.
type ParamSpec struct {
	Name  string
	Shape []int
	Decay bool    // AdamW decays matrices only (nanoGPT's rule), never norms or biases
	std   float64 // initial normal std; 0 with ones=false means zeros
	ones  bool    // RMSNorm gains start at one
}

// Size is the number of elements.
func (p ParamSpec) Size() int {
	n := 1
	for _, d := range p.Shape {
		n *= d
	}
	return n
}

// Params lists the model's weights with their Hugging Face names, in HF's
// module order. Graphs bind weights by these names (bindByName), so the
// order matters only for initialisation's random draws.
func (c Config) Params() []ParamSpec {
	D, F, V := c.HiddenSize, c.IntermediateSize, c.VocabSize
	hd := c.headDim()
	qOut, kvOut := c.NumAttentionHeads*hd, c.NumKeyValueHeads*hd
	const std = 0.02 // HF's initializer_range
	// Residual projections are scaled down by √(2L) so the residual stream's
	// variance does not grow with depth (GPT-2, nanoGPT).
	resStd := std / math.Sqrt(2*float64(c.NumHiddenLayers))
	ps := []ParamSpec{{Name: "model.embed_tokens.weight", Shape: []int{V, D}, Decay: true, std: std}}
	// linear adds a [out, in] weight and, when bias, its [out] bias (zeros).
	linear := func(name string, out, in int, s float64, bias bool) {
		ps = append(ps, ParamSpec{Name: name + ".weight", Shape: []int{out, in}, Decay: true, std: s})
		if bias {
			ps = append(ps, ParamSpec{Name: name + ".bias", Shape: []int{out}})
		}
	}
	for l := range c.NumHiddenLayers {
		p := fmt.Sprintf("model.layers.%d.", l)
		ps = append(ps, ParamSpec{Name: p + "input_layernorm.weight", Shape: []int{D}, ones: true})
		linear(p+"self_attn.q_proj", qOut, D, std, c.qkvBias())
		linear(p+"self_attn.k_proj", kvOut, D, std, c.qkvBias())
		linear(p+"self_attn.v_proj", kvOut, D, std, c.qkvBias())
		linear(p+"self_attn.o_proj", D, qOut, resStd, c.oBias())
		if c.qkNorm() {
			ps = append(ps,
				ParamSpec{Name: p + "self_attn.q_norm.weight", Shape: []int{hd}, ones: true},
				ParamSpec{Name: p + "self_attn.k_norm.weight", Shape: []int{hd}, ones: true})
		}
		ps = append(ps, ParamSpec{Name: p + "post_attention_layernorm.weight", Shape: []int{D}, ones: true})
		linear(p+"mlp.gate_proj", F, D, std, c.mlpBias())
		linear(p+"mlp.up_proj", F, D, std, c.mlpBias())
		linear(p+"mlp.down_proj", D, F, resStd, c.mlpBias())
	}
	ps = append(ps, ParamSpec{Name: "model.norm.weight", Shape: []int{D}, ones: true})
	switch {
	case c.NumLabels > 0:
		ps = append(ps, ParamSpec{Name: "score.weight", Shape: []int{c.NumLabels, D}, Decay: true, std: std})
	case !c.TieWordEmbeddings:
		ps = append(ps, ParamSpec{Name: "lm_head.weight", Shape: []int{V, D}, Decay: true, std: std})
	}
	return ps
}

// NumParams counts the model's weights.
func (c Config) NumParams() int {
	n := 0
	for _, p := range c.Params() {
		n += p.Size()
	}
	return n
}

// StepBytes estimates the bytes of activations a training step keeps per
// sequence of T tokens (forward values kept for the backward pass and the
// backward's own), as
//
//	4·T·(k_V·V + L·(k_D·D + k_F·F + k_A·H·T))
//
// with V the vocabulary, L layers, D the width, F the MLP width and H the
// heads: [T, V] tables (logits, log-softmax, probabilities, their
// gradients), [T, D] and [T, F] tables per layer, and [H, T, T]
// attention tables per layer. The constants k count those tables,
// rounded up: for 32 ifeval sequences of ~512 tokens on the small preset
// the estimate is 5.0 GB, against 4.7 GB of live heap measured (README).
func (c Config) StepBytes(T int) int64 {
	const kV, kD, kF, kA = 8, 24, 8, 6
	V, L, D, F, H := int64(c.VocabSize), int64(c.NumHiddenLayers), int64(c.HiddenSize), int64(c.IntermediateSize), int64(c.NumAttentionHeads)
	t := int64(T)
	return 4 * t * (kV*V + L*(kD*D+kF*F+kA*H*t))
}

// initParams draws fresh weights: normal(0, std) matrices, zero biases,
// unit norm gains. The same seed gives the same weights.
func initParams(c Config, seed uint64) [][]float32 {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	specs := c.Params()
	out := make([][]float32, len(specs))
	for i, p := range specs {
		v := make([]float32, p.Size())
		switch {
		case p.ones:
			for j := range v {
				v[j] = 1
			}
		case p.std > 0:
			for j := range v {
				v[j] = float32(rng.NormFloat64() * p.std)
			}
		}
		out[i] = v
	}
	return out
}
