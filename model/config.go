package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/credo-rl/credo/internal/atomicfile"
)

// Config is a decoder-only transformer's shape, read from and written to a
// Hugging Face config.json with the same field names, so a Qwen2 or Llama
// checkpoint folder loads as it is.
type Config struct {
	Architectures         []string `json:"architectures,omitempty"`
	ModelType             string   `json:"model_type"` // "llama" or "qwen2"
	VocabSize             int      `json:"vocab_size"`
	HiddenSize            int      `json:"hidden_size"`       // D
	IntermediateSize      int      `json:"intermediate_size"` // the SwiGLU width
	NumHiddenLayers       int      `json:"num_hidden_layers"` // L
	NumAttentionHeads     int      `json:"num_attention_heads"`
	NumKeyValueHeads      int      `json:"num_key_value_heads"` // grouped-query attention when < heads
	HeadDim               int      `json:"head_dim,omitempty"`  // 0 means hidden_size / heads
	MaxPositionEmbeddings int      `json:"max_position_embeddings"`
	RopeTheta             float64  `json:"rope_theta"`
	RMSNormEps            float64  `json:"rms_norm_eps"`
	TieWordEmbeddings     bool     `json:"tie_word_embeddings"`
	// AttentionBias adds biases to the q, k and v projections (Llama's
	// field). Qwen2 has them always and its config.json does not say so.
	AttentionBias bool   `json:"attention_bias,omitempty"`
	HiddenAct     string `json:"hidden_act"`
	// NumLabels > 0 adds a token-level scoring head "score.weight"
	// [num_labels, D] in place of the language-model head, as Hugging
	// Face's *ForTokenClassification models have; the process reward model uses it.
	NumLabels  int    `json:"num_labels,omitempty"`
	TorchDtype string `json:"torch_dtype,omitempty"`
	BOSTokenID *int   `json:"bos_token_id,omitempty"`
	EOSTokenID any    `json:"eos_token_id,omitempty"` // an id or a list of ids in HF files
	PadTokenID *int   `json:"pad_token_id,omitempty"`
}

// ignoredFields are config.json fields real checkpoints carry that do not
// change the forward pass as credo computes it (caching, dropout at
// inference, initialisation, bookkeeping). Anything else unknown is an error:
// silently ignoring a field that changes the model would give wrong outputs.
var ignoredFields = map[string]bool{
	"_name_or_path": true, "transformers_version": true, "use_cache": true,
	"initializer_range": true, "attention_dropout": true, "pretraining_tp": true,
	"max_window_layers": true, "sliding_window": true,
	"id2label": true, "label2id": true, "mlp_bias": true, "dtype": true,
}

// mustBeFields are fields credo knows but supports only at one value.
var mustBeFields = map[string]string{
	"use_sliding_window": "false",
	"rope_scaling":       "null",
}

// Validate checks that the configuration describes a model credo can build.
func (c Config) Validate() error {
	var errs []string
	bad := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	switch c.ModelType {
	case "llama", "qwen2":
	default:
		bad("model_type %q is not supported (want llama or qwen2)", c.ModelType)
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
	}
	if c.NumAttentionHeads > 0 && c.NumKeyValueHeads > 0 && c.NumAttentionHeads%c.NumKeyValueHeads != 0 {
		bad("num_attention_heads (%d) must be a multiple of num_key_value_heads (%d)", c.NumAttentionHeads, c.NumKeyValueHeads)
	}
	if c.HeadDim == 0 && c.NumAttentionHeads > 0 && c.HiddenSize%c.NumAttentionHeads != 0 {
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
	if c.RMSNormEps <= 0 {
		bad("rms_norm_eps must be positive, got %g", c.RMSNormEps)
	}
	if c.HiddenAct != "silu" {
		bad("hidden_act %q is not supported (SwiGLU needs silu)", c.HiddenAct)
	}
	if c.NumLabels > 0 && c.TieWordEmbeddings {
		bad("num_labels > 0 (a scoring head) contradicts tie_word_embeddings: the head is not the embedding table")
	}
	if len(errs) > 0 {
		return fmt.Errorf("invalid model config: %s", strings.Join(errs, "; "))
	}
	return nil
}

func (c Config) headDim() int {
	if c.HeadDim > 0 {
		return c.HeadDim
	}
	if c.NumAttentionHeads == 0 {
		return 0
	}
	return c.HiddenSize / c.NumAttentionHeads
}

// qkvBias reports whether the q, k and v projections have biases.
func (c Config) qkvBias() bool { return c.AttentionBias || c.ModelType == "qwen2" }

// ParseConfig reads a config.json. Unknown fields are an error unless they
// are bookkeeping real checkpoints carry; fields credo supports only at one
// value (use_sliding_window, rope_scaling) must have it.
func ParseConfig(data []byte) (Config, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return Config{}, fmt.Errorf("parse model config: %w", err)
	}
	for k, v := range raw {
		if want, ok := mustBeFields[k]; ok {
			if got := string(bytes.TrimSpace(v)); got != want {
				return Config{}, fmt.Errorf("model config: %s = %s is not supported (want %s)", k, got, want)
			}
			delete(raw, k)
		} else if ignoredFields[k] {
			delete(raw, k)
		}
	}
	clean, _ := json.Marshal(raw)
	dec := json.NewDecoder(bytes.NewReader(clean))
	dec.DisallowUnknownFields()
	var c Config
	if err := dec.Decode(&c); err != nil {
		if field, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			return Config{}, fmt.Errorf("model config: unknown field %s (credo does not know what it changes)", field)
		}
		return Config{}, fmt.Errorf("parse model config: %w", err)
	}
	if c.NumKeyValueHeads == 0 {
		c.NumKeyValueHeads = c.NumAttentionHeads // HF's default
	}
	if err := c.Validate(); err != nil {
		return Config{}, err
	}
	return c, nil
}

// LoadConfig reads dir/config.json.
func LoadConfig(dir string) (Config, error) {
	path := filepath.Join(dir, "config.json")
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("load model config: %w", err)
	}
	c, err := ParseConfig(data)
	if err != nil {
		return Config{}, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// Save writes dir/config.json atomically.
func (c Config) Save(dir string) error {
	if err := c.Validate(); err != nil {
		return err
	}
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, "config.json"), append(data, '\n'))
}
