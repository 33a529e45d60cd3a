package gguftest

import (
	"fmt"
	"math/rand/v2"
	"unicode/utf8"

	"github.com/credo-rl/credo/gguf"
)

// Llama describes a tiny llama model for TinyLlama. Row lengths (Hidden,
// FFN, Heads·HeadDim) must be multiples of 32 for the block types.
type Llama struct {
	Layers, Hidden, Heads, KVHeads, HeadDim, FFN int
	Tied                                         bool      // no output.weight: the head is the embedding table
	Matrix, Embed                                gguf.Type // the linear layers' type and token_embd's
	Seed                                         uint64
}

// SmallLlama is a 2-layer model with grouped-query attention, SmolLM2's
// layout (tied, Q8_0 embeddings, Q4_1 matrices) in miniature.
var SmallLlama = Llama{Layers: 2, Hidden: 64, Heads: 4, KVHeads: 2, HeadDim: 16, FFN: 96, Tied: true, Matrix: gguf.Q4_1, Embed: gguf.Q8_0, Seed: 1}

// ChatTemplate is SmolLM2-135M-Instruct's chat template.
const ChatTemplate = "{% for message in messages %}{% if loop.first and messages[0]['role'] != 'system' %}{{ '<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>\n' }}{% endif %}{{'<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}"

// Specials are the tiny vocabulary's control tokens, ids 0, 1, 2.
var Specials = []string{"<|endoftext|>", "<|im_start|>", "<|im_end|>"}

// Merges are the tiny vocabulary's merges, in rank order; each makes one
// token after the 256 byte tokens.
var Merges = []string{"Ġ t", "h e", "Ġt he", "i n", "Ġ a"}

// Tiny is a TinyLlama file with the weights its tensors decode to.
type Tiny struct {
	File []byte
	// Want maps each Hugging Face weight name to its values in HF's layout
	// (q and k rows as transformers has them), as the file's quantized
	// tensors decode: what a converter must produce.
	Want   map[string][]float32
	Tokens []string
}

// TinyLlama writes a llama GGUF as llama.cpp's convert_hf_to_gguf.py does:
// random weights in Hugging Face's layout, q and k rows permuted for ggml's
// rotary embedding, every tensor stored transposed in ggml's dims order,
// the tokenizer as tokenizer.ggml.* metadata.
func TinyLlama(c Llama) Tiny {
	rng := rand.New(rand.NewPCG(c.Seed, 7))
	tokens := vocabulary()
	V, D := len(tokens), c.Hidden
	var w Writer
	addLlamaMetadata(&w, c, tokens)
	t := Tiny{Want: map[string][]float32{}, Tokens: tokens}
	add := func(gname, hfname string, typ gguf.Type, out, in int, permuteHeads int) {
		x := make([]float32, out*in)
		for i := range x {
			x[i] = float32(rng.NormFloat64() * 0.1)
		}
		if in == 1 { // a norm gain near one
			for i := range x {
				x[i] += 1
			}
		}
		data := Quantize(typ, x)
		want, err := gguf.Dequantize(typ, data, int64(len(x)))
		if err != nil {
			panic(err)
		}
		t.Want[hfname] = want
		if permuteHeads > 0 {
			data = Quantize(typ, permute(x, permuteHeads, out, in))
		}
		dims := []int64{int64(in), int64(out)}
		if in == 1 {
			dims = []int64{int64(out)}
		}
		w.AddTensor(gname, typ, dims, data)
	}
	add("token_embd.weight", "model.embed_tokens.weight", c.Embed, V, D, 0)
	q, kv := c.Heads*c.HeadDim, c.KVHeads*c.HeadDim
	for l := range c.Layers {
		g, h := fmt.Sprintf("blk.%d.", l), fmt.Sprintf("model.layers.%d.", l)
		add(g+"attn_norm.weight", h+"input_layernorm.weight", gguf.F32, D, 1, 0)
		add(g+"attn_q.weight", h+"self_attn.q_proj.weight", c.Matrix, q, D, c.Heads)
		add(g+"attn_k.weight", h+"self_attn.k_proj.weight", c.Matrix, kv, D, c.KVHeads)
		add(g+"attn_v.weight", h+"self_attn.v_proj.weight", c.Matrix, kv, D, 0)
		add(g+"attn_output.weight", h+"self_attn.o_proj.weight", c.Matrix, D, q, 0)
		add(g+"ffn_norm.weight", h+"post_attention_layernorm.weight", gguf.F32, D, 1, 0)
		add(g+"ffn_gate.weight", h+"mlp.gate_proj.weight", c.Matrix, c.FFN, D, 0)
		add(g+"ffn_up.weight", h+"mlp.up_proj.weight", c.Matrix, c.FFN, D, 0)
		add(g+"ffn_down.weight", h+"mlp.down_proj.weight", c.Matrix, D, c.FFN, 0)
	}
	add("output_norm.weight", "model.norm.weight", gguf.F32, D, 1, 0)
	if !c.Tied {
		add("output.weight", "lm_head.weight", c.Matrix, V, D, 0)
	}
	t.File = w.Bytes()
	return t
}

func addLlamaMetadata(w *Writer, c Llama, tokens []string) {
	w.Add("general.architecture", "llama")
	w.Add("general.name", "tiny")
	w.Add("llama.block_count", uint32(c.Layers))
	w.Add("llama.context_length", uint32(256))
	w.Add("llama.embedding_length", uint32(c.Hidden))
	w.Add("llama.feed_forward_length", uint32(c.FFN))
	w.Add("llama.attention.head_count", uint32(c.Heads))
	w.Add("llama.attention.head_count_kv", uint32(c.KVHeads))
	w.Add("llama.attention.key_length", uint32(c.HeadDim))
	w.Add("llama.attention.value_length", uint32(c.HeadDim))
	w.Add("llama.rope.freq_base", float32(100000))
	w.Add("llama.rope.dimension_count", uint32(c.HeadDim))
	w.Add("llama.attention.layer_norm_rms_epsilon", float32(1e-5))
	w.Add("llama.vocab_size", uint32(len(tokens)))
	w.Add("tokenizer.ggml.model", "gpt2")
	w.Add("tokenizer.ggml.pre", "smollm")
	w.Add("tokenizer.ggml.tokens", tokens)
	types := make([]int32, len(tokens))
	for i := range types {
		types[i] = 1 // normal
		if i < len(Specials) {
			types[i] = 3 // control
		}
	}
	w.Add("tokenizer.ggml.token_type", types)
	w.Add("tokenizer.ggml.merges", Merges)
	w.Add("tokenizer.ggml.bos_token_id", uint32(1))
	w.Add("tokenizer.ggml.eos_token_id", uint32(2))
	w.Add("tokenizer.ggml.unknown_token_id", uint32(0))
	w.Add("tokenizer.ggml.padding_token_id", uint32(2))
	w.Add("tokenizer.ggml.add_bos_token", false)
	w.Add("tokenizer.chat_template", ChatTemplate)
}

// vocabulary is Specials, the 256 bytes in GPT-2's byte-level alphabet,
// then one token per merge.
func vocabulary() []string {
	tokens := append([]string(nil), Specials...)
	next := rune(256) // the bytes GPT-2 does not print stand for U+0100 on
	for b := range 256 {
		visible := b > ' ' && b < 0x7f || b > 0xa0 && b != 0xad
		if visible {
			tokens = append(tokens, string(rune(b)))
			continue
		}
		tokens = append(tokens, string(next))
		next++
	}
	for _, m := range Merges {
		var joined []byte
		for _, r := range m {
			if r != ' ' {
				joined = utf8.AppendRune(joined, r)
			}
		}
		tokens = append(tokens, string(joined))
	}
	return tokens
}

// permute is llama.cpp's LlamaModel.permute,
// W.reshape(heads, 2, rows/heads/2, in).swapaxes(1, 2): ggml row r of head
// h = r/d holds HF row h·d + (r%d%2)·d/2 + (r%d)/2, d = rows/heads.
func permute(w []float32, heads, rows, in int) []float32 {
	out := make([]float32, 0, len(w))
	d := rows / heads
	for r := range rows {
		src := r/d*d + r%d%2*(d/2) + r%d/2
		out = append(out, w[src*in:(src+1)*in]...)
	}
	return out
}
