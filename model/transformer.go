package model

import (
	"math"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // graph code reads like math
	attn "github.com/gomlx/gomlx/ml/layers/attention"
)

// This file is the model: one decoder-only transformer of the Llama/Qwen2
// family written directly with graph ops. Every linear layer is a 3-D
// Einsum over PyTorch's [out, in] weights ("btd,ed->bte"): measured here,
// that keeps the backward pass off the pure-Go backend's slow fused-dense
// transposes (see DESIGN.md, "Backend facts").
//
// Shapes: B batch, T query positions, S key positions, D hidden, H query
// heads, K key/value heads, G = H/K heads per group, E head dim, F FFN
// width, V vocabulary.

// weights are the parameter nodes of one graph, by role.
type weights struct {
	embed  *Node // [V, D]
	layers []layerWeights
	norm   *Node // [D]
	head   *Node // [V, D]: lm_head, the embedding table when tied, or score [labels, D]
}

type layerWeights struct {
	inNorm, postNorm *Node // [D]
	q, k, v, o       *Node // [H*E, D], [K*E, D], [K*E, D], [D, H*E]
	qb, kb, vb       *Node // [H*E], [K*E], [K*E] or nil
	gate, up, down   *Node // [F, D], [F, D], [D, F]
}

// bindWeights gives roles to parameter nodes passed in Config.Params order.
func bindWeights(c Config, ps []*Node) *weights {
	next := func() *Node { n := ps[0]; ps = ps[1:]; return n }
	w := &weights{embed: next()}
	for range c.NumHiddenLayers {
		var l layerWeights
		l.inNorm = next()
		l.q = next()
		if c.qkvBias() {
			l.qb = next()
		}
		l.k = next()
		if c.qkvBias() {
			l.kb = next()
		}
		l.v = next()
		if c.qkvBias() {
			l.vb = next()
		}
		l.o, l.postNorm, l.gate, l.up, l.down = next(), next(), next(), next(), next()
		w.layers = append(w.layers, l)
	}
	w.norm = next()
	w.head = w.embed
	if c.NumLabels > 0 || !c.TieWordEmbeddings {
		w.head = next()
	}
	return w
}

// kvCache is one layer's cache of keys and values, [B, K, S, E] (head
// major, so attention reads it without a transpose), with the slot at which
// this call's keys are written.
type kvCache struct {
	k, v *Node
	at   *Node // scalar int32
}

// attnInputs are what every layer's attention needs besides its input.
type attnInputs struct {
	cos, sin *Node // [B, T, 1, E/2]
	mask     *Node // [B, 1, T, S] bool: may query t see key s
}

// linear applies a PyTorch-layout weight [out, in] and an optional bias.
func linear(x, w, b *Node) *Node {
	y := Einsum("btd,ed->bte", x, w) // [B, T, out]
	if b != nil {
		y = Add(y, lift(b, 3))
	}
	return y
}

// lift gives a vector [n] leading unit axes up to rank, so it broadcasts
// over batch and time: [n] → [1, …, 1, n].
func lift(v *Node, rank int) *Node {
	dims := make([]int, rank)
	for i := range dims {
		dims[i] = 1
	}
	dims[rank-1] = v.Shape().Dimensions[0]
	return Reshape(v, dims...)
}

// rmsNorm is x / √(mean(x²) + ε) · g, over the last axis. Written with Div
// and Sqrt because Rsqrt has no gradient in this GoMLX version.
func rmsNorm(x, g *Node, eps float64) *Node {
	ms := ReduceAndKeep(Square(x), ReduceMean, -1)                  // [B, T, 1]
	return Mul(Div(x, Sqrt(AddScalar(ms, eps))), lift(g, x.Rank())) // [B, T, D]
}

// rope returns the rotary cos and sin tables for positions [B, T]:
// angle[b,t,i] = pos[b,t] · θ^(−2i/E), i < E/2 (HF's rotate-half layout).
func rope(c Config, positions *Node) (cos, sin *Node) {
	half := c.headDim() / 2
	inv := make([]float32, half)
	for i := range inv {
		inv[i] = float32(1 / math.Pow(c.RopeTheta, float64(2*i)/float64(c.headDim())))
	}
	pos := ConvertDType(positions, dtypes.Float32)                          // [B, T]
	ang := Mul(ExpandAxes(pos, -1), lift(Const(positions.Graph(), inv), 3)) // [B, T, E/2]
	ang = ExpandAxes(ang, 2)                                                // [B, T, 1, E/2]
	return Cos(ang), Sin(ang)
}

// applyRope rotates x [B, T, heads, E]: (x1, x2) → (x1·cos − x2·sin, x2·cos + x1·sin).
func applyRope(x, cos, sin *Node) *Node {
	half := x.Shape().Dimensions[3] / 2
	x1 := Slice(x, AxisRange(), AxisRange(), AxisRange(), AxisRange(0, half))
	x2 := Slice(x, AxisRange(), AxisRange(), AxisRange(), AxisRange(half))
	return Concatenate([]*Node{
		Sub(Mul(x1, cos), Mul(x2, sin)),
		Add(Mul(x2, cos), Mul(x1, sin)),
	}, 3) // [B, T, heads, E]
}

// causalMask says which keys each query sees: key slot s is visible to
// query slot t when s ≤ t and the key is real (not padding). A padding
// query sees itself, so rows no one reads stay finite instead of NaN.
// queryIdx [T] and keyIdx [S] are slot indices, keyValid [B, S]; the mask
// is [B, 1, T, S].
func causalMask(queryIdx, keyIdx, keyValid *Node) *Node {
	t := queryIdx.Shape().Dimensions[0]
	s := keyIdx.Shape().Dimensions[0]
	b := keyValid.Shape().Dimensions[0]
	kIdx, qIdx := Reshape(keyIdx, 1, 1, s), Reshape(queryIdx, 1, t, 1)
	causal := LessOrEqual(kIdx, qIdx)                               // [1, T, S]
	valid := Reshape(keyValid, b, 1, s)                             // [B, 1, S]
	mask := LogicalOr(LogicalAnd(causal, valid), Equal(kIdx, qIdx)) // [B, T, S]
	return Reshape(mask, b, 1, t, s)
}

// attention is grouped-query attention of queries q [B, T, H, E] over keys
// and values [B, K, S, E] under mask [B, 1, T, S]; it returns [B, T, H*E].
// It is GoMLX's attention.Core in its decomposed form: the Go backend's
// fused kernel measured slower here for KV-cache decoding (1,281 against
// 2,272 tokens/s at batch 64) and has no backward pass.
func attention(q, k, v, mask *Node) *Node {
	dims := q.Shape().Dimensions
	B, T, H, E := dims[0], dims[1], dims[2], dims[3]
	qh := TransposeAllDims(q, 0, 2, 1, 3) // [B, H, T, E]
	out, _ := attn.Core(qh, k, v, attn.LayoutBHSD, attn.CoreOptions{AttentionMask: mask, DisableFusion: true})
	return Reshape(TransposeAllDims(out, 0, 2, 1, 3), B, T, H*E) // [B, T, H*E]
}

// block is one pre-norm transformer layer. With a cache, this call's keys
// and values are written into it at cache.at and attention reads the whole
// cache; the updated cache is returned.
func block(c Config, l layerWeights, h *Node, in attnInputs, cache *kvCache) (*Node, *kvCache) {
	dims := h.Shape().Dimensions
	B, T := dims[0], dims[1]
	E, H, K := c.headDim(), c.NumAttentionHeads, c.NumKeyValueHeads

	x := rmsNorm(h, l.inNorm, c.RMSNormEps)                                   // [B, T, D]
	q := applyRope(Reshape(linear(x, l.q, l.qb), B, T, H, E), in.cos, in.sin) // [B, T, H, E]
	k := applyRope(Reshape(linear(x, l.k, l.kb), B, T, K, E), in.cos, in.sin) // [B, T, K, E]
	v := Reshape(linear(x, l.v, l.vb), B, T, K, E)                            // [B, T, K, E]
	k = TransposeAllDims(k, 0, 2, 1, 3)                                       // [B, K, T, E]
	v = TransposeAllDims(v, 0, 2, 1, 3)                                       // [B, K, T, E]
	if cache != nil {
		zero := ScalarZero(h.Graph(), dtypes.Int32)
		idx := []*Node{zero, zero, cache.at, zero}
		cache = &kvCache{k: DynamicUpdateSlice(cache.k, k, idx), v: DynamicUpdateSlice(cache.v, v, idx), at: cache.at}
		k, v = cache.k, cache.v // [B, K, S, E]
	}
	h = Add(h, linear(attention(q, k, v, in.mask), l.o, nil)) // [B, T, D]

	x = rmsNorm(h, l.postNorm, c.RMSNormEps)
	gate := linear(x, l.gate, nil)                            // [B, T, F]
	ff := Mul(Mul(gate, Sigmoid(gate)), linear(x, l.up, nil)) // SwiGLU: silu(gate) · up
	return Add(h, linear(ff, l.down, nil)), cache             // [B, T, D]
}

// forward runs the layers over input embeddings x [B, T, D] and returns
// the final normalised hidden states [B, T, D]. caches is nil or has one
// entry per layer, updated in place.
func forward(c Config, w *weights, x *Node, in attnInputs, caches []*kvCache) *Node {
	for i, l := range w.layers {
		var cache *kvCache
		if caches != nil {
			cache = caches[i]
		}
		x, cache = block(c, l, x, in, cache)
		if caches != nil {
			caches[i] = cache
		}
	}
	return rmsNorm(x, w.norm, c.RMSNormEps)
}

// embedTokens looks up token embeddings: [B, T] → [B, T, D].
func embedTokens(w *weights, tokens *Node) *Node {
	return Gather(w.embed, ExpandAxes(tokens, -1))
}

// headLogits projects hidden states onto the head: [B, T, D] → [B, T, V]
// (or [B, T, labels] for a scoring head).
func headLogits(w *weights, h *Node) *Node {
	return Einsum("btd,vd->btv", h, w.head)
}

// sequenceInputs builds RoPE tables and the causal mask for a batch of
// right-padded sequences [B, T] at positions 0..T−1. Right padding never
// reaches a real token through a causal mask, so no key mask is needed.
func sequenceInputs(c Config, tokens *Node) attnInputs {
	g := tokens.Graph()
	dims := tokens.Shape().Dimensions
	B, T := dims[0], dims[1]
	pos := Iota(g, tokens.Shape(), 1) // [B, T]
	cos, sin := rope(c, pos)
	idx := Iota(g, shapes.Make(dtypes.Int32, T), 0)
	valid := BroadcastToDims(Const(g, true), B, T)
	return attnInputs{cos: cos, sin: sin, mask: causalMask(idx, idx, valid)}
}
