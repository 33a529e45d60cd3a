package tohf

import (
	"fmt"
	"strconv"

	"github.com/credo-rl/credo/gguf"
	"github.com/credo-rl/credo/model"
)

// llamaConfig maps the llama.* metadata onto a Hugging Face LlamaConfig.
// Features credo's llama does not have (mixture of experts, partial rotary
// embeddings, rope scaling, sliding windows) are errors naming the key.
func llamaConfig(f *gguf.File) (model.Config, error) {
	arch, err := f.String("general.architecture")
	if err != nil {
		return model.Config{}, err
	}
	if arch != "llama" {
		return model.Config{}, fmt.Errorf("architecture %q is not supported (only llama)", arch)
	}
	for _, k := range []string{"llama.expert_count", "llama.rope.scaling.type", "llama.attention.sliding_window"} {
		if f.Has(k) {
			if v, err := f.Int(k); err == nil && v == 0 {
				continue // an explicit zero expert count
			}
			if s, err := f.String(k); err == nil && s == "none" {
				continue
			}
			return model.Config{}, fmt.Errorf("metadata %s = %v: credo's llama does not implement it", k, f.Metadata[k].Any())
		}
	}
	var c model.Config
	c.ModelType, c.HiddenAct = "llama", "silu"
	var errs []error
	get := func(dst *int, key string, def int) {
		if def >= 0 && !f.Has(key) {
			*dst = def
			return
		}
		v, err := f.Int(key)
		if err == nil && (v <= 0 || v > 1<<30) {
			err = fmt.Errorf("metadata %s = %d is out of range", key, v)
		}
		errs = append(errs, err)
		*dst = int(v)
	}
	get(&c.NumHiddenLayers, "llama.block_count", -1)
	get(&c.HiddenSize, "llama.embedding_length", -1)
	get(&c.IntermediateSize, "llama.feed_forward_length", -1)
	get(&c.NumAttentionHeads, "llama.attention.head_count", -1)
	get(&c.MaxPositionEmbeddings, "llama.context_length", -1)
	for _, err := range errs {
		if err != nil {
			return model.Config{}, err
		}
	}
	get(&c.NumKeyValueHeads, "llama.attention.head_count_kv", c.NumAttentionHeads)
	hd := c.HiddenSize / c.NumAttentionHeads
	get(&c.HeadDim, "llama.attention.key_length", hd)
	var valueLen, ropeDim int
	get(&valueLen, "llama.attention.value_length", c.HeadDim)
	get(&ropeDim, "llama.rope.dimension_count", c.HeadDim)
	for _, err := range errs {
		if err != nil {
			return model.Config{}, err
		}
	}
	if valueLen != c.HeadDim || ropeDim != c.HeadDim {
		return model.Config{}, fmt.Errorf("key length %d, value length %d and rope dimension %d differ: credo's llama rotates whole heads of one size", c.HeadDim, valueLen, ropeDim)
	}
	if c.HeadDim == hd && c.HiddenSize%c.NumAttentionHeads == 0 {
		c.HeadDim = 0 // HF's default, left out of config.json
	}
	c.RopeTheta, err = float(f, "llama.rope.freq_base", 10000)
	if err != nil {
		return model.Config{}, err
	}
	if c.RMSNormEps, err = float(f, "llama.attention.layer_norm_rms_epsilon", -1); err != nil {
		return model.Config{}, err
	}
	return c, nil
}

// float reads a float key (def when absent and def ≥ 0), a float32 as the
// shortest decimal that rounds to it: 1e-05, not 9.999999747378752e-06.
func float(f *gguf.File, key string, def float64) (float64, error) {
	if def >= 0 && !f.Has(key) {
		return def, nil
	}
	v, err := f.Float(key)
	if err != nil {
		return 0, err
	}
	if f.Metadata[key].Type == gguf.TypeFloat32 {
		v, _ = strconv.ParseFloat(strconv.FormatFloat(v, 'g', -1, 32), 64)
	}
	return v, nil
}
