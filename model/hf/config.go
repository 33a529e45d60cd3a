package hf

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/credo-rl/credo/internal/atomicfile"
	"github.com/credo-rl/credo/internal/boundedread"
	"github.com/credo-rl/credo/model"
)

// ReadConfig reads dir/config.json (ParseConfig).
func ReadConfig(dir string) (model.Config, error) {
	path := filepath.Join(dir, "config.json")
	data, err := boundedread.ReadFile(path, boundedread.Settings)
	if err != nil {
		return model.Config{}, fmt.Errorf("load model config: %w", err)
	}
	c, err := ParseConfig(data)
	if err != nil {
		return model.Config{}, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// WriteConfig writes dir/config.json atomically, from c normalized: with
// the architecture HF needs to pick the model class and the storage dtype.
func WriteConfig(dir string, c model.Config) error {
	if err := c.Validate(); err != nil {
		return err
	}
	data, err := json.MarshalIndent(c.Normalized(), "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, "config.json"), append(data, '\n'))
}

// A config.json key is understood (a model.Config field, or one of
// ParseConfig's special keys), inert (listed here with why it changes
// nothing in credo's computation), pinned to the one value credo
// implements (pinnedKeys), or unknown, which is an error: silently
// ignoring a key that changes the model would give wrong outputs.
var inertKeys = map[string]string{
	"_name_or_path":                "where the folder came from",
	"transformers_version":         "the version of the library that wrote the file",
	"use_cache":                    "whether HF keeps keys and values while generating; caching does not change outputs, and credo's Decode always caches",
	"initializer_range":            "the std of freshly drawn weights; a loaded model's weights are given",
	"pretraining_tp":               "Llama's tensor-parallel degree during pretraining; HF computes the same products in slices",
	"max_window_layers":            "which layers would use a sliding window; none does while use_sliding_window is false, which is checked",
	"sliding_window":               "the window's size, read only when use_sliding_window is true or layer_types names sliding_attention, both refused",
	"label2id":                     "a scoring head's label names; id2label gives their count",
	"_attn_implementation_autoset": "which attention kernel transformers picked (eager, sdpa, flash); all compute the same attention",
	"is_llama_config":              "a marker nanotron writes (SmolLM); LlamaConfig stores and never reads it",
}

// pinnedKeys are keys credo implements at one value only.
var pinnedKeys = map[string]struct {
	ok   func(v any) bool
	want string
}{
	"use_sliding_window": {func(v any) bool { return v == false }, "false: sliding-window attention is not implemented"},
	"attention_dropout":  {func(v any) bool { return v == 0.0 }, "0: credo runs and trains without dropout"},
	"classifier_dropout": {func(v any) bool { return v == nil || v == 0.0 }, "null or 0: credo runs and trains without dropout"},
	// transformers' Llama ignores rope_interleaved and always rotates
	// halves; a checkpoint trained interleaved would run wrongly there too.
	"rope_interleaved": {func(v any) bool { return v == false }, "false: credo (like transformers' Llama) rotates halves"},
}

// specialKeys are understood but not plain model.Config fields.
var specialKeys = map[string]bool{
	"rope_scaling": true, "rope_parameters": true, // → RopeTheta, RopeScaling
	"layer_types": true, // every layer must be full attention
	"dtype":       true, // transformers 5's name for torch_dtype
	"id2label":    true, // its length is num_labels for a token-classification head
}

// ParseConfig reads a config.json as transformers writes it (versions 4
// and 5). Unknown keys, and values of known keys that would change the
// computation in ways credo does not implement, are errors naming the key.
func ParseConfig(data []byte) (model.Config, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return model.Config{}, fmt.Errorf("parse model config: %w", err)
	}
	special := map[string]json.RawMessage{}
	for k, v := range raw {
		if p, ok := pinnedKeys[k]; ok {
			var got any
			if err := json.Unmarshal(v, &got); err != nil || !p.ok(got) {
				return model.Config{}, fmt.Errorf("model config: %s = %s is not supported (want %s)", k, bytes.TrimSpace(v), p.want)
			}
			delete(raw, k)
		} else if _, ok := inertKeys[k]; ok {
			delete(raw, k)
		} else if specialKeys[k] {
			special[k] = v
			delete(raw, k)
		}
	}
	clean, _ := json.Marshal(raw)
	dec := json.NewDecoder(bytes.NewReader(clean))
	dec.DisallowUnknownFields()
	var c model.Config
	if err := dec.Decode(&c); err != nil {
		if field, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			return model.Config{}, fmt.Errorf("model config: unknown field %s (credo does not know what it changes)", field)
		}
		return model.Config{}, fmt.Errorf("parse model config: %w", err)
	}
	if err := applySpecial(&c, special); err != nil {
		return model.Config{}, fmt.Errorf("model config: %w", err)
	}
	if c.NumKeyValueHeads == 0 {
		c.NumKeyValueHeads = c.NumAttentionHeads // HF's default
	}
	if err := c.Validate(); err != nil {
		return model.Config{}, err
	}
	if len(c.Architectures) == 0 {
		c.Architectures = []string{c.Architecture()}
	}
	return c, nil
}

// applySpecial reads into c the keys that are not plain fields.
func applySpecial(c *model.Config, special map[string]json.RawMessage) error {
	if v, ok := special["dtype"]; ok {
		var d string
		if err := json.Unmarshal(v, &d); err != nil {
			return fmt.Errorf("dtype: %w", err)
		}
		if c.TorchDtype != "" && c.TorchDtype != d {
			return fmt.Errorf("dtype %q and torch_dtype %q disagree", d, c.TorchDtype)
		}
		c.TorchDtype = d
	}
	_, hasScaling := special["rope_scaling"]
	_, hasParams := special["rope_parameters"]
	if hasScaling && hasParams {
		var s any
		if json.Unmarshal(special["rope_scaling"], &s) == nil && s != nil {
			return fmt.Errorf("both rope_scaling and rope_parameters are given: say it once")
		}
	}
	for _, key := range []string{"rope_scaling", "rope_parameters"} {
		v, ok := special[key]
		if !ok {
			continue
		}
		scaling, theta, err := parseRope(key, v)
		if err != nil {
			return err
		}
		if scaling != nil {
			if scaling.OriginalMaxPositionEmbeddings == 0 {
				scaling.OriginalMaxPositionEmbeddings = c.MaxPositionEmbeddings
			}
			c.RopeScaling = scaling
		}
		if theta != 0 {
			if c.RopeTheta != 0 && c.RopeTheta != theta {
				return fmt.Errorf("rope_theta %g and %s.rope_theta %g disagree", c.RopeTheta, key, theta)
			}
			c.RopeTheta = theta
		}
	}
	if v, ok := special["layer_types"]; ok {
		var types []string
		if err := json.Unmarshal(v, &types); err != nil {
			return fmt.Errorf("layer_types: %w", err)
		}
		if len(types) != c.NumHiddenLayers {
			return fmt.Errorf("layer_types has %d entries for %d layers", len(types), c.NumHiddenLayers)
		}
		for i, t := range types {
			if t != "full_attention" {
				return fmt.Errorf("layer_types[%d] = %q is not supported (credo implements full_attention only)", i, t)
			}
		}
	}
	if v, ok := special["id2label"]; ok && c.NumLabels == 0 &&
		len(c.Architectures) == 1 && strings.HasSuffix(c.Architectures[0], "ForTokenClassification") {
		// transformers writes id2label, not num_labels, for a scoring head.
		var labels map[string]string
		if err := json.Unmarshal(v, &labels); err != nil {
			return fmt.Errorf("id2label: %w", err)
		}
		c.NumLabels = len(labels)
	}
	return nil
}
