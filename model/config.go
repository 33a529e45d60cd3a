package model

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/credo-rl/credo/internal/atomicfile"
	"github.com/credo-rl/credo/internal/boundedread"
)

// Config is a decoder-only transformer's shape, read from and written to a
// Hugging Face config.json with the same field names, so a Llama, Qwen2 or
// Qwen3 checkpoint folder loads as it is. ParseConfig says which keys it
// understands, which it accepts because they change nothing, and which it
// refuses.
type Config struct {
	// Architectures is HF's class name, [<Type>ForCausalLM] or
	// [<Type>ForTokenClassification]; New and ParseConfig fill it in.
	Architectures     []string `json:"architectures,omitempty"`
	ModelType         string   `json:"model_type"` // "llama", "qwen2" or "qwen3"
	VocabSize         int      `json:"vocab_size"`
	HiddenSize        int      `json:"hidden_size"`       // D
	IntermediateSize  int      `json:"intermediate_size"` // the SwiGLU width
	NumHiddenLayers   int      `json:"num_hidden_layers"` // L
	NumAttentionHeads int      `json:"num_attention_heads"`
	NumKeyValueHeads  int      `json:"num_key_value_heads"` // grouped-query attention when < heads
	// HeadDim 0 means HF's default: hidden_size / heads for llama and
	// qwen2, 128 for qwen3 (Qwen3Config's default).
	HeadDim               int     `json:"head_dim,omitempty"`
	MaxPositionEmbeddings int     `json:"max_position_embeddings"`
	RopeTheta             float64 `json:"rope_theta"`
	// RopeScaling rescales the rotary frequencies (Llama 3's "llama3"
	// type); nil is plain RoPE. Read from rope_scaling or rope_parameters,
	// written as rope_scaling, which every transformers version reads.
	RopeScaling       *RopeScaling `json:"rope_scaling,omitempty"`
	RMSNormEps        float64      `json:"rms_norm_eps"`
	TieWordEmbeddings bool         `json:"tie_word_embeddings"`
	// AttentionBias adds biases to the q, k, v and o projections of llama
	// and qwen3 (HF's attention_bias). Qwen2 has q, k and v biases always,
	// no o bias, and ignores the field, as HF does.
	AttentionBias bool `json:"attention_bias,omitempty"`
	// MLPBias adds biases to llama's gate, up and down projections (HF's
	// mlp_bias); Qwen2 and Qwen3 have none and ignore it, as HF does.
	MLPBias   bool   `json:"mlp_bias,omitempty"`
	HiddenAct string `json:"hidden_act"`
	// NumLabels > 0 adds a token-level scoring head "score.weight"
	// [num_labels, D] in place of the language-model head, as Hugging
	// Face's *ForTokenClassification models have; the process reward model uses it.
	NumLabels int `json:"num_labels,omitempty"`
	// TorchDtype is the storage dtype of the weights: "float32",
	// "bfloat16" or "float16". Load sets it from the folder's tensors;
	// computation is always float32.
	TorchDtype string `json:"torch_dtype,omitempty"`
	BOSTokenID *int   `json:"bos_token_id,omitempty"`
	EOSTokenID any    `json:"eos_token_id,omitempty"` // an id or a list of ids in HF files
	PadTokenID *int   `json:"pad_token_id,omitempty"`
}

// architectureNames maps model_type to HF's class-name prefix.
var architectureNames = map[string]string{"llama": "Llama", "qwen2": "Qwen2", "qwen3": "Qwen3"}

// architecture is HF's class for this config: the model type's prefix and
// ForCausalLM, or ForTokenClassification with a scoring head.
func (c Config) architecture() string {
	suffix := "ForCausalLM"
	if c.NumLabels > 0 {
		suffix = "ForTokenClassification"
	}
	return architectureNames[c.ModelType] + suffix
}

// normalized fills in what HF would write for a config credo builds: the
// architecture and, for fresh weights, float32 storage.
func (c Config) normalized() Config {
	if c.NumKeyValueHeads == 0 {
		c.NumKeyValueHeads = c.NumAttentionHeads // HF's default
	}
	c.Architectures = []string{c.architecture()}
	if c.TorchDtype == "" {
		c.TorchDtype = "float32"
	}
	return c
}

// Bounds that keep a hostile config.json from making Load allocate without
// limit before it reads a tensor (the largest real values are ~1M vocabulary
// entries, ~10M positions, ~130 layers).
const maxDim, maxLayers = 1 << 24, 1 << 12

// Validate checks that the configuration describes a model credo can build.
func (c Config) Validate() error {
	var errs []string
	bad := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	if _, ok := architectureNames[c.ModelType]; !ok {
		bad("model_type %q is not supported (want llama, qwen2 or qwen3)", c.ModelType)
	} else if len(c.Architectures) > 0 && !slices.Equal(c.Architectures, []string{c.architecture()}) {
		bad("architectures %v do not match model_type %q with num_labels %d (credo builds %s)", c.Architectures, c.ModelType, c.NumLabels, c.architecture())
	}
	for _, f := range []struct {
		name string
		v    int
	}{{"vocab_size", c.VocabSize}, {"hidden_size", c.HiddenSize}, {"intermediate_size", c.IntermediateSize},
		{"num_hidden_layers", c.NumHiddenLayers}, {"num_attention_heads", c.NumAttentionHeads},
		{"num_key_value_heads", c.NumKeyValueHeads}, {"max_position_embeddings", c.MaxPositionEmbeddings}} {
		if f.v <= 0 {
			bad("%s must be positive, got %d", f.name, f.v)
		}
		if f.v > maxDim {
			bad("%s %d is beyond any real model's (at most %d)", f.name, f.v, maxDim)
		}
	}
	if c.NumHiddenLayers > maxLayers || c.HeadDim > maxDim || c.NumLabels > maxDim {
		bad("num_hidden_layers %d, head_dim %d or num_labels %d is beyond any real model's", c.NumHiddenLayers, c.HeadDim, c.NumLabels)
	}
	if c.NumAttentionHeads > 0 && c.NumKeyValueHeads > 0 && c.NumAttentionHeads%c.NumKeyValueHeads != 0 {
		bad("num_attention_heads (%d) must be a multiple of num_key_value_heads (%d)", c.NumAttentionHeads, c.NumKeyValueHeads)
	}
	if c.HeadDim == 0 && c.ModelType != "qwen3" && c.NumAttentionHeads > 0 && c.HiddenSize%c.NumAttentionHeads != 0 {
		bad("hidden_size (%d) is not a multiple of num_attention_heads (%d) and head_dim is not given", c.HiddenSize, c.NumAttentionHeads)
	}
	if hd := c.headDim(); hd%2 != 0 {
		bad("head_dim %d must be even for rotary embeddings", hd)
	}
	if c.HeadDim < 0 || c.NumLabels < 0 {
		bad("head_dim and num_labels cannot be negative")
	}
	if c.RopeTheta <= 0 {
		bad("rope_theta must be positive, got %g", c.RopeTheta)
	}
	if c.RopeScaling != nil {
		if err := c.RopeScaling.validate(); err != nil {
			bad("%v", err)
		}
	}
	if c.RMSNormEps <= 0 {
		bad("rms_norm_eps must be positive, got %g", c.RMSNormEps)
	}
	if c.HiddenAct != "silu" {
		bad("hidden_act %q is not supported (SwiGLU needs silu)", c.HiddenAct)
	}
	if c.NumLabels > 0 && c.TieWordEmbeddings {
		bad("num_labels > 0 (a scoring head) contradicts tie_word_embeddings: the head is not the embedding table")
	}
	if _, err := storageDType(c.TorchDtype); err != nil {
		bad("%v", err)
	}
	if len(errs) > 0 {
		return fmt.Errorf("invalid model config: %s", strings.Join(errs, "; "))
	}
	return nil
}

func (c Config) headDim() int {
	switch {
	case c.HeadDim > 0:
		return c.HeadDim
	case c.ModelType == "qwen3":
		return 128 // Qwen3Config's default head_dim
	case c.NumAttentionHeads == 0:
		return 0
	}
	return c.HiddenSize / c.NumAttentionHeads
}

// qkvBias reports whether the q, k and v projections have biases.
func (c Config) qkvBias() bool { return c.AttentionBias || c.ModelType == "qwen2" }

// oBias reports whether o_proj has a bias: HF's Llama and Qwen3 put one
// there with attention_bias; Qwen2's o_proj never has one.
func (c Config) oBias() bool { return c.AttentionBias && c.ModelType != "qwen2" }

// mlpBias reports whether gate, up and down have biases (Llama's mlp_bias).
func (c Config) mlpBias() bool { return c.MLPBias && c.ModelType == "llama" }

// qkNorm reports whether queries and keys are RMS-normalised per head
// before RoPE (Qwen3's q_norm and k_norm).
func (c Config) qkNorm() bool { return c.ModelType == "qwen3" }

// LoadConfig reads dir/config.json.
func LoadConfig(dir string) (Config, error) {
	path := filepath.Join(dir, "config.json")
	data, err := boundedread.ReadFile(path, boundedread.Settings)
	if err != nil {
		return Config{}, fmt.Errorf("load model config: %w", err)
	}
	c, err := ParseConfig(data)
	if err != nil {
		return Config{}, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// Save writes dir/config.json atomically, with the architecture HF needs
// to pick the model class and the storage dtype.
func (c Config) Save(dir string) error {
	if err := c.Validate(); err != nil {
		return err
	}
	data, err := json.MarshalIndent(c.normalized(), "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, "config.json"), append(data, '\n'))
}
