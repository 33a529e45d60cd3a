package tohf

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/credo-rl/credo/gguf"
	"github.com/credo-rl/credo/model"
	mhf "github.com/credo-rl/credo/model/hf"
)

// hfName maps a llama GGUF tensor name to its Hugging Face name.
var (
	globalNames = map[string]string{
		"token_embd.weight":  "model.embed_tokens.weight",
		"output_norm.weight": "model.norm.weight",
		"output.weight":      "lm_head.weight",
	}
	layerNames = map[string]string{
		"attn_norm": "input_layernorm", "ffn_norm": "post_attention_layernorm",
		"attn_q": "self_attn.q_proj", "attn_k": "self_attn.k_proj", "attn_v": "self_attn.v_proj",
		"attn_output": "self_attn.o_proj",
		"ffn_gate":    "mlp.gate_proj", "ffn_up": "mlp.up_proj", "ffn_down": "mlp.down_proj",
	}
	layerTensor = regexp.MustCompile(`^blk\.(\d+)\.([a-z_]+)\.(weight|bias)$`)
)

func hfName(name string) (string, bool) {
	if n, ok := globalNames[name]; ok {
		return n, true
	}
	m := layerTensor.FindStringSubmatch(name)
	if m == nil {
		return "", false
	}
	part, ok := layerNames[m[2]]
	return "model.layers." + m[1] + "." + part + "." + m[3], ok
}

// withTensors completes c from the tensor table: the vocabulary size,
// whether the head is tied (no output.weight) and whether the attention
// and MLP have biases.
func withTensors(f *gguf.File, c model.Config) (model.Config, error) {
	emb, ok := f.Tensor("token_embd.weight")
	if !ok {
		return c, fmt.Errorf("tensor token_embd.weight is missing")
	}
	if len(emb.Dims) != 2 || emb.Dims[0] != int64(c.HiddenSize) {
		return c, fmt.Errorf("tensor token_embd.weight has dims %v, want [%d, vocab]", emb.Dims, c.HiddenSize)
	}
	c.VocabSize = int(emb.Dims[1])
	if v, err := f.Int("llama.vocab_size"); err == nil && v != int64(c.VocabSize) {
		return c, fmt.Errorf("llama.vocab_size is %d but token_embd.weight has %d rows", v, c.VocabSize)
	}
	_, untied := f.Tensor("output.weight")
	c.TieWordEmbeddings = !untied
	_, c.AttentionBias = f.Tensor("blk.0.attn_q.bias")
	_, c.MLPBias = f.Tensor("blk.0.ffn_gate.bias")
	return c, c.Validate()
}

// weights reads every tensor c's model has, in Hugging Face's layout and
// dtype: shapes checked, q and k rows unpermuted. A GGUF tensor the model
// does not use is an error naming it.
func weights(ctx context.Context, f *gguf.File, c model.Config, dtype string) (map[string]mhf.Tensor, error) {
	byHF := map[string]gguf.TensorInfo{}
	var unused []string
	for _, t := range f.Tensors {
		n, ok := hfName(t.Name)
		if !ok {
			unused = append(unused, t.Name)
			continue
		}
		byHF[n] = t
	}
	out := map[string]mhf.Tensor{}
	for _, p := range c.Params() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		t, ok := byHF[p.Name]
		if !ok {
			return nil, fmt.Errorf("tensor for %s is missing", p.Name)
		}
		delete(byHF, p.Name)
		if !slices.Equal(t.Shape(), p.Shape) {
			return nil, fmt.Errorf("tensor %s (%s) has shape %v, want %v", t.Name, p.Name, t.Shape(), p.Shape)
		}
		x, err := f.Float32(t)
		if err != nil {
			return nil, err
		}
		switch {
		case strings.Contains(p.Name, ".q_proj."):
			x = unpermute(x, c.NumAttentionHeads, p.Shape[0])
		case strings.Contains(p.Name, ".k_proj."):
			x = unpermute(x, c.NumKeyValueHeads, p.Shape[0])
		}
		out[p.Name] = mhf.Tensor{Shape: p.Shape, Data: x, DType: dtype}
	}
	for _, t := range byHF {
		unused = append(unused, t.Name)
	}
	if len(unused) > 0 {
		slices.Sort(unused)
		return nil, fmt.Errorf("tensors a llama with this config does not use: %s", strings.Join(unused, ", "))
	}
	return out, nil
}

// unpermute undoes llama.cpp's permutation of q and k rows. transformers
// rotates the two halves of each head's dims (rotate_half); ggml rotates
// adjacent pairs, so convert_hf_to_gguf.py interleaves the halves, writing
// HF row h·d + j·d/2 + i at ggml row h·d + 2i + j (head h of heads, d rows
// a head, i < d/2, j ∈ {0, 1}). x is [rows, in] row-major (a bias: in = 1).
func unpermute(x []float32, heads, rows int) []float32 {
	in := len(x) / rows
	d := rows / heads
	out := make([]float32, len(x))
	for h := range heads {
		for i := range d / 2 {
			for j := range 2 {
				src := (h*d + 2*i + j) * in
				dst := (h*d + j*d/2 + i) * in
				copy(out[dst:dst+in], x[src:src+in])
			}
		}
	}
	return out
}
