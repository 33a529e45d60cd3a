package model

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // graph code reads like math
)

// This file is the model: one decoder-only transformer of the Llama
// family (Llama, Qwen2, Qwen3) written directly with graph ops. Every
// linear layer is a 3-D Einsum over PyTorch's [out, in] weights ("btd,ed->bte"): measured here,
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
	qb, kb, vb, ob   *Node // [H*E], [K*E], [K*E], [D] or nil
	qNorm, kNorm     *Node // [E] or nil (Qwen3)
	gate, up, down   *Node // [F, D], [F, D], [D, F]
	gb, ub, db       *Node // [F], [F], [D] or nil (Llama's mlp_bias)
}

// bindWeights gives roles to parameter nodes passed in Config.Params
// order, by name (bindByName).
func bindWeights(c Config, ps []*Node) *weights { return bindByName(c, c.Params(), ps) }

// bindByName gives roles to parameter nodes by their Hugging Face names:
// ps[i] is the tensor specs[i] names, in any order. A missing, misshapen
// or unused tensor panics with its name (GoMLX turns the panic into the
// graph builder's error): it is a bug in credo, never bad input.
func bindByName(c Config, specs []ParamSpec, ps []*Node) *weights {
	if len(specs) != len(ps) {
		panic(fmt.Errorf("bind weights: %d nodes for %d parameters", len(ps), len(specs)))
	}
	byName := make(map[string]*Node, len(specs))
	for i, s := range specs {
		if got := ps[i].Shape().Dimensions; !slices.Equal(got, s.Shape) {
			panic(fmt.Errorf("bind weights: %s has shape %v, want %v", s.Name, got, s.Shape))
		}
		byName[s.Name] = ps[i]
	}
	get := func(name string) *Node {
		n, ok := byName[name]
		if !ok {
			panic(fmt.Errorf("bind weights: no parameter %s", name))
		}
		delete(byName, name)
		return n
	}
	opt := func(name string, present bool) *Node {
		if !present {
			return nil
		}
		return get(name)
	}
	w := &weights{embed: get("model.embed_tokens.weight")}
	for i := range c.NumHiddenLayers {
		p := fmt.Sprintf("model.layers.%d.", i)
		qkv, o, mlp := c.qkvBias(), c.oBias(), c.mlpBias()
		w.layers = append(w.layers, layerWeights{
			inNorm: get(p + "input_layernorm.weight"), postNorm: get(p + "post_attention_layernorm.weight"),
			q: get(p + "self_attn.q_proj.weight"), qb: opt(p+"self_attn.q_proj.bias", qkv),
			k: get(p + "self_attn.k_proj.weight"), kb: opt(p+"self_attn.k_proj.bias", qkv),
			v: get(p + "self_attn.v_proj.weight"), vb: opt(p+"self_attn.v_proj.bias", qkv),
			o: get(p + "self_attn.o_proj.weight"), ob: opt(p+"self_attn.o_proj.bias", o),
			qNorm: opt(p+"self_attn.q_norm.weight", c.qkNorm()), kNorm: opt(p+"self_attn.k_norm.weight", c.qkNorm()),
			gate: get(p + "mlp.gate_proj.weight"), gb: opt(p+"mlp.gate_proj.bias", mlp),
			up: get(p + "mlp.up_proj.weight"), ub: opt(p+"mlp.up_proj.bias", mlp),
			down: get(p + "mlp.down_proj.weight"), db: opt(p+"mlp.down_proj.bias", mlp),
		})
	}
	w.norm = get("model.norm.weight")
	switch {
	case c.NumLabels > 0:
		w.head = get("score.weight")
	case c.TieWordEmbeddings:
		w.head = w.embed
	default:
		w.head = get("lm_head.weight")
	}
	if len(byName) > 0 {
		panic(fmt.Errorf("bind weights: %s not used by the graph", strings.Join(slices.Sorted(maps.Keys(byName)), ", ")))
	}
	return w
}

// kvCache is one layer's cache of keys and values, head major so
// attention reads it without a transpose: keys [B, K, E, S], values
// [B, K, S, E], with the slot at which this call's keys are written. The
// keys are stored transposed so that the scores q·kᵀ are a product along
// the slots with the head dim contracted, which the backend vectorizes
// across slots; with [B, K, S, E] keys and one query row per head (KV-cache
// decoding), every score was a separate horizontal sum.
type kvCache struct {
	k, v *Node
	at   *Node // scalar int32
}

// emptyCaches returns zeroed caches of S slots for B rows, one per layer,
// written from slot 0.
func emptyCaches(g *Graph, c Config, B, S int) []*kvCache {
	K, E := c.NumKeyValueHeads, c.headDim()
	caches := make([]*kvCache, c.NumHiddenLayers)
	for i := range caches {
		caches[i] = &kvCache{
			k:  Zeros(g, shapes.Make(dtypes.Float32, B, K, E, S)),
			v:  Zeros(g, shapes.Make(dtypes.Float32, B, K, S, E)),
			at: ScalarZero(g, dtypes.Int32),
		}
	}
	return caches
}

// growCache maps a cache's keys and values [B, K, E, S] and [B, K, S, E]
// through f, which is given the slot axis of each.
func growCache(kv *kvCache, at *Node, f func(x *Node, slotAxis int) *Node) *kvCache {
	return &kvCache{k: f(kv.k, 3), v: f(kv.v, 2), at: at}
}

// attnInputs are what every layer's attention needs besides its input.
type attnInputs struct {
	cos, sin *Node // [B, T, 1, E/2]
	mask     *Node // [B, 1, T, S] bool: may query t see key s

	// Optional (see broadcastInputs): the additive mask [B, H, T, S] and
	// the RoPE tables [B, T, H or K, E/2], broadcast over the heads once
	// for all layers.
	bias                   *Node
	cosQ, sinQ, cosK, sinK *Node
}

// broadcastInputs gives in the tables broadcast over the heads. Adding the
// mask [B, 1, T, S] to scores [B, H, T, S], or multiplying heads by
// [B, T, 1, E/2] tables, broadcasts over a middle axis, which the Go
// backend does element by element through an index iterator; same-shape
// operands take its vectorized loops. Decoding builds them once per step
// for all layers (12% of a 1M decode step's CPU went to that iterator);
// they are small there, while at training sizes the broadcast [B, H, T, T]
// mask would be a large tensor, so training does not use them.
func broadcastInputs(c Config, in attnInputs) attnInputs {
	cd := in.cos.Shape().Dimensions // [B, T, 1, E/2]
	md := in.mask.Shape().Dimensions
	H, K := c.NumAttentionHeads, c.NumKeyValueHeads
	g := in.mask.Graph()
	bias := Where(in.mask, ScalarZero(g, dtypes.Float32), Scalar(g, dtypes.Float32, maskedScore))
	in.bias = BroadcastToDims(bias, md[0], H, md[2], md[3])
	in.cosQ = BroadcastToDims(in.cos, cd[0], cd[1], H, cd[3])
	in.sinQ = BroadcastToDims(in.sin, cd[0], cd[1], H, cd[3])
	in.cosK = BroadcastToDims(in.cos, cd[0], cd[1], K, cd[3])
	in.sinK = BroadcastToDims(in.sin, cd[0], cd[1], K, cd[3])
	return in
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

// rmsNorm is x · r · g with r = 1/√(mean(x²) + ε), over the last axis
// (the hidden size, or the head dim for Qwen3's q_norm/k_norm), as
// Hugging Face computes it (x · rsqrt(…)). The reciprocal is taken on the
// small [..., 1] tensor, so the full-size passes are multiplications, not
// divisions (forward and backward). Written with Div and Sqrt because Rsqrt
// has no gradient in this GoMLX version.
func rmsNorm(x, g *Node, eps float64) *Node {
	ms := ReduceAndKeep(Square(x), ReduceMean, -1)   // [..., 1]
	r := Div(OnesLike(ms), Sqrt(AddScalar(ms, eps))) // [..., 1]
	return Mul(Mul(x, r), lift(g, x.Rank()))         // [..., D]
}

// rope returns the rotary cos and sin tables for positions [B, T]:
// angle[b,t,i] = pos[b,t] · ω_i, i < E/2 (HF's rotate-half layout), with
// the frequencies ω of Config.invFreq.
func rope(c Config, positions *Node) (cos, sin *Node) {
	inv64 := c.invFreq()
	inv := make([]float32, len(inv64))
	for i, v := range inv64 {
		inv[i] = float32(v)
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

// maskedScore is the additive bias of a key a query may not see: exp of it
// (after subtracting the row's maximum) is exactly 0 in float32, as a
// boolean mask's would be.
const maskedScore = -1e30

// attention is grouped-query attention of queries q [B, T, H, E] over keys
// and values [B, K, S, E] (keys [B, K, E, S] when keysT, as a kvCache holds
// them) under mask [B, 1, T, S]; it returns [B, T, H*E]:
// softmax(q·kᵀ/√E + bias)·v, bias 0 where the mask allows and maskedScore
// elsewhere. It is written out rather than taken from attention.Core:
// Core's boolean-masked softmax costs six Where passes over the scores
// [B, H, T, S] (forward and backward) and a division; an additive bias
// costs one Add forward and nothing backward, and the softmax multiplies
// by the reciprocal of its sum. (The Go backend's fused kernel measured
// slower for KV-cache decoding, 1,281 against 2,272 tokens/s at batch 64,
// and has no backward pass.)
//
// The products take k and v as they are, with two batch axes (b, k),
// rather than reshaped to [B·K, S, E]: with a KV cache, k and v are also
// the step's outputs, so the backend cannot reuse their buffers and a
// reshape would copy the whole cache every layer and every token.
func attention(q, k, v *Node, in attnInputs, keysT bool) *Node {
	dims := q.Shape().Dimensions
	B, T, H := dims[0], dims[1], dims[2]
	K, S := v.Shape().Dimensions[1], v.Shape().Dimensions[2]
	kc := []int{3} // the keys' head-dim axis, contracted
	if keysT {
		kc = []int{2}
	}
	G := H / K
	g := q.Graph()
	bias := in.bias // [B, H, T, S]
	if bias == nil {
		bias = Where(in.mask, ScalarZero(g, dtypes.Float32), Scalar(g, dtypes.Float32, maskedScore)) // [B, 1, T, S]
	}
	// The scale 1/√E goes on the queries and the softmax's normalization on
	// the output (E values a row) rather than on the scores and
	// probabilities (S values a row): two fewer passes over the [B, H, T, S]
	// tables, the largest tensors of a replay or a long sequence.
	qh := groupQueries(q, K) // [B, K, G·T, E]
	batch := []int{0, 1}
	scores := DotGeneral(qh, []int{3}, batch, k, kc, batch)  // [B, K, G·T, S]
	scores = Add(Reshape(scores, B, K*G, T, S), bias)        // [B, H, T, S]
	mx := StopGradient(ReduceAndKeep(scores, ReduceMax, -1)) // [B, H, T, 1]
	// e is reshaped before its two uses: the backend reshapes a buffer in
	// place only when the reshape is its last use, and copies it otherwise.
	e := Reshape(Exp(Sub(scores, mx)), B, K, G*T, S)            // [B, K, G·T, S]
	out := DotGeneral(e, []int{3}, batch, v, []int{2}, batch)   // [B, K, G·T, E]: Σ_s e·v
	out = Mul(out, Reciprocal(ReduceAndKeep(e, ReduceSum, -1))) // [B, K, G·T, E]: ÷ Σ_s e
	return ungroupHeads(out, H)                                 // [B, T, H*E]
}

// groupQueries scales queries q [B, T, H, E] by 1/√E and groups them by
// key head: [B, K, G·T, E], heads k·G…k·G+G−1 (G = H/K) sharing key head k.
func groupQueries(q *Node, K int) *Node {
	d := q.Shape().Dimensions
	B, T, H, E := d[0], d[1], d[2], d[3]
	q = MulScalar(q, 1/math.Sqrt(float64(E)))
	return Reshape(TransposeAllDims(q, 0, 2, 1, 3), B, K, H/K*T, E)
}

// ungroupHeads is the inverse layout for attention outputs: [B, K, G·T, E]
// with H heads in all → [B, T, H*E].
func ungroupHeads(out *Node, H int) *Node {
	d := out.Shape().Dimensions
	B, K, E := d[0], d[1], d[3]
	T := d[2] * K / H
	return Reshape(TransposeAllDims(Reshape(out, B, H, T, E), 0, 2, 1, 3), B, T, H*E)
}

// block is one pre-norm transformer layer. With a cache, this call's keys
// and values are written into it at cache.at and attention reads the whole
// cache; the updated cache is returned.
func block(c Config, l layerWeights, h *Node, in attnInputs, cache *kvCache) (*Node, *kvCache) {
	q, k, v := projectQKV(c, l, h, in)  // [B, T, H, E], [B, T, K, E], [B, T, K, E]
	v = TransposeAllDims(v, 0, 2, 1, 3) // [B, K, T, E]
	if cache != nil {
		zero := ScalarZero(h.Graph(), dtypes.Int32)
		kT := TransposeAllDims(k, 0, 2, 3, 1) // [B, K, E, T]
		cache = &kvCache{
			k:  DynamicUpdateSlice(cache.k, kT, []*Node{zero, zero, zero, cache.at}),
			v:  DynamicUpdateSlice(cache.v, v, []*Node{zero, zero, cache.at, zero}),
			at: cache.at,
		}
		k, v = cache.k, cache.v // [B, K, E, S], [B, K, S, E]
	} else {
		k = TransposeAllDims(k, 0, 2, 1, 3) // [B, K, T, E]
	}
	return finishBlock(c, l, h, attention(q, k, v, in, cache != nil)), cache
}

// projectQKV is a layer's attention inputs from h [B, T, D]: queries
// [B, T, H, E], keys and values [B, T, K, E], after Qwen3's per-head
// RMSNorm and RoPE.
func projectQKV(c Config, l layerWeights, h *Node, in attnInputs) (q, k, v *Node) {
	dims := h.Shape().Dimensions
	B, T := dims[0], dims[1]
	E, H, K := c.headDim(), c.NumAttentionHeads, c.NumKeyValueHeads
	x := rmsNorm(h, l.inNorm, c.RMSNormEps)       // [B, T, D]
	q = Reshape(linear(x, l.q, l.qb), B, T, H, E) // [B, T, H, E]
	k = Reshape(linear(x, l.k, l.kb), B, T, K, E) // [B, T, K, E]
	v = Reshape(linear(x, l.v, l.vb), B, T, K, E) // [B, T, K, E]
	if l.qNorm != nil {                           // Qwen3: per-head RMSNorm before RoPE
		q, k = rmsNorm(q, l.qNorm, c.RMSNormEps), rmsNorm(k, l.kNorm, c.RMSNormEps)
	}
	if in.cosQ != nil {
		return applyRope(q, in.cosQ, in.sinQ), applyRope(k, in.cosK, in.sinK), v
	}
	return applyRope(q, in.cos, in.sin), applyRope(k, in.cos, in.sin), v
}

// finishBlock is the rest of a layer after attention: the output
// projection of att [B, T, H*E] added to h, then the pre-normed SwiGLU MLP
// added in turn.
func finishBlock(c Config, l layerWeights, h, att *Node) *Node {
	h = Add(h, linear(att, l.o, l.ob)) // [B, T, D]
	x := rmsNorm(h, l.postNorm, c.RMSNormEps)
	gate := linear(x, l.gate, l.gb)                            // [B, T, F]
	ff := Mul(Mul(gate, Sigmoid(gate)), linear(x, l.up, l.ub)) // SwiGLU: silu(gate) · up
	return Add(h, linear(ff, l.down, l.db))                    // [B, T, D]
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
