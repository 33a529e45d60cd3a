package hf

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/credo-rl/credo/model"
)

// parseRope reads a rope_scaling or rope_parameters object (transformers
// 5 moved rope_theta into the latter). It returns nil scaling for the
// default type and theta 0 when the object has none. Keys a type does not
// read, and types credo does not implement, are errors: they would change
// the frequencies.
func parseRope(key string, msg json.RawMessage) (*model.RopeScaling, float64, error) {
	if string(bytes.TrimSpace(msg)) == "null" {
		return nil, 0, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(msg, &m); err != nil {
		return nil, 0, fmt.Errorf("%s: %w", key, err)
	}
	// transformers 5 may nest the parameters by layer type.
	if inner, ok := m["full_attention"]; ok {
		if len(m) > 1 {
			return nil, 0, fmt.Errorf("%s: %s besides full_attention: only full attention is implemented", key, keyList(m))
		}
		return parseRope(key+".full_attention", inner)
	}
	if _, ok := m["sliding_attention"]; ok {
		return nil, 0, fmt.Errorf("%s: sliding_attention is not supported (credo implements full_attention only)", key)
	}
	str := func(k string) (string, error) {
		var s string
		if v, ok := m[k]; ok {
			if err := json.Unmarshal(v, &s); err != nil {
				return "", fmt.Errorf("%s.%s: %w", key, k, err)
			}
		}
		delete(m, k)
		return s, nil
	}
	typ, err := str("rope_type")
	if err != nil {
		return nil, 0, err
	}
	legacy, err := str("type") // the name before transformers 4.43
	if err != nil {
		return nil, 0, err
	}
	if typ == "" {
		typ = legacy
	} else if legacy != "" && legacy != typ {
		return nil, 0, fmt.Errorf("%s: type %q and rope_type %q disagree", key, legacy, typ)
	}
	var theta float64
	if v, ok := m["rope_theta"]; ok {
		if err := json.Unmarshal(v, &theta); err != nil {
			return nil, 0, fmt.Errorf("%s.rope_theta: %w", key, err)
		}
		delete(m, "rope_theta")
	}
	if v, ok := m["partial_rotary_factor"]; ok {
		var f float64
		if err := json.Unmarshal(v, &f); err != nil || f != 1 {
			return nil, 0, fmt.Errorf("%s: partial_rotary_factor %s is not supported (credo rotates the whole head)", key, v)
		}
		delete(m, "partial_rotary_factor")
	}
	switch typ {
	case "", "default":
		if len(m) > 0 {
			return nil, 0, fmt.Errorf("%s: %s not read by rope_type default", key, keyList(m))
		}
		return nil, theta, nil
	case "llama3":
		r, err := parseLlama3(key, m)
		if err != nil {
			return nil, 0, err
		}
		return r, theta, nil
	}
	return nil, 0, fmt.Errorf("%s: rope_type %q is not supported (credo implements default and llama3)", key, typ)
}

// parseLlama3 reads the parameters of rope_type llama3 from m, the rest
// of a rope_scaling or rope_parameters object: each is needed (but
// original_max_position_embeddings, which the caller fills in), and any
// other key is an error.
func parseLlama3(key string, m map[string]json.RawMessage) (*model.RopeScaling, error) {
	r := model.RopeScaling{RopeType: "llama3"}
	for _, f := range []struct {
		k string
		v any
	}{{"factor", &r.Factor}, {"low_freq_factor", &r.LowFreqFactor}, {"high_freq_factor", &r.HighFreqFactor},
		{"original_max_position_embeddings", &r.OriginalMaxPositionEmbeddings}} {
		v, ok := m[f.k]
		if !ok && f.k == "original_max_position_embeddings" {
			continue // transformers 5 defaults it to max_position_embeddings; the caller fills it in
		}
		if !ok {
			return nil, fmt.Errorf("%s: rope_type llama3 needs %s", key, f.k)
		}
		if err := json.Unmarshal(v, f.v); err != nil {
			return nil, fmt.Errorf("%s.%s: %w", key, f.k, err)
		}
		delete(m, f.k)
	}
	if len(m) > 0 {
		return nil, fmt.Errorf("%s: %s not understood for rope_type llama3", key, keyList(m))
	}
	return &r, nil
}

func keyList(m map[string]json.RawMessage) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, fmt.Sprintf("%q", k))
	}
	slices.Sort(keys)
	return "key(s) " + strings.Join(keys, ", ")
}
