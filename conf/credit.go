package conf

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/internal/settings"
)

// Credit is a config file's credit section: credit.Config's options under
// their config.json keys, read with the rules of UnmarshalJSON.
type Credit struct {
	credit.Config
}

// DefaultCredit is credit.DefaultConfig as a config file's section.
func DefaultCredit() Credit { return Credit{credit.DefaultConfig()} }

// legacyKey is a config key older runs wrote, read into the fields that
// replaced it. Its replacements may not be given beside it: which one
// meant what would be a guess.
type legacyKey struct {
	name     string
	replaced []string // the keys that took its place
	apply    func(c *credit.Config, raw json.RawMessage) error
}

var legacyKeys = []legacyKey{{
	// One warm-up for every relevance source: it now is one per source.
	name:     "warmup_steps",
	replaced: []string{"span_warmup_steps", "replay_warmup_steps"},
	apply: func(c *credit.Config, raw json.RawMessage) error {
		var n int
		if err := json.Unmarshal(raw, &n); err != nil {
			return err
		}
		c.SpanWarmup, c.ReplayWarmup = n, n
		return nil
	},
}, {
	// P2T's step reward was a switch between R (false) and 2R − 1 (true).
	name:     "signed",
	replaced: []string{"step_reward"},
	apply: func(c *credit.Config, raw json.RawMessage) error {
		var signed bool
		if err := json.Unmarshal(raw, &signed); err != nil {
			return err
		}
		c.StepReward = credit.StepUnsigned
		if signed {
			c.StepReward = credit.StepSigned
		}
		return nil
	},
}}

// UnmarshalJSON reads a config.json credit section: keys not in it keep
// c's values, an unknown key is an error (naming it), and the keys of
// older runs (legacyKeys) load into the fields that replaced them; given
// together with those fields' own keys they are an error.
func (c *Credit) UnmarshalJSON(data []byte) error {
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		return nil
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return fmt.Errorf("credit config: %w", err)
	}
	var apply []func() error
	for _, l := range legacyKeys {
		key, ok := findKey(raw, l.name)
		if !ok {
			continue
		}
		for _, r := range l.replaced {
			if _, both := findKey(raw, r); both {
				return fmt.Errorf("credit config: %q (of older runs) and %q given together: keep only %s", l.name, r, strings.Join(l.replaced, " and "))
			}
		}
		val := raw[key]
		delete(raw, key)
		apply = append(apply, func() error {
			if err := l.apply(&c.Config, val); err != nil {
				return fmt.Errorf("credit config: %s: %w", l.name, err)
			}
			return nil
		})
	}
	rest, err := json.Marshal(raw)
	if err != nil {
		return fmt.Errorf("credit config: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(rest))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c.Config); err != nil {
		return fmt.Errorf("credit config: %w", err)
	}
	for _, f := range apply {
		if err := f(); err != nil {
			return err
		}
	}
	return nil
}

// findKey finds a key as encoding/json matches field names: exactly, else
// case-insensitively.
func findKey(raw map[string]json.RawMessage, name string) (string, bool) {
	if _, ok := raw[name]; ok {
		return name, true
	}
	for k := range raw {
		if strings.EqualFold(k, name) {
			return k, true
		}
	}
	return "", false
}

// UnmarshalYAML reads the credit section of a YAML config with the same
// keys and rules as UnmarshalJSON.
func (c *Credit) UnmarshalYAML(n *yaml.Node) error {
	var m map[string]any
	if err := n.Decode(&m); err != nil {
		return fmt.Errorf("credit config: %w", err)
	}
	if m == nil {
		return nil
	}
	data, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("credit config: %w", err)
	}
	return c.UnmarshalJSON(data)
}

// Problems is the section's invalid options (credit.Config.Validate), each
// named by its config.json key under "credit." (credit.OptionError); an
// error without a key is named "credit".
func (c Credit) Problems() settings.Problems {
	err := c.Validate()
	if err == nil {
		return nil
	}
	var ps settings.Problems
	for _, e := range leafErrors(err) {
		if oe := (*credit.OptionError)(nil); errors.As(e, &oe) {
			ps = append(ps, settings.Problem{Key: "credit." + oe.Key, Msg: oe.Msg})
			continue
		}
		ps = append(ps, settings.Problem{Key: "credit", Msg: e.Error()})
	}
	return ps
}

// leafErrors flattens errors.Join trees.
func leafErrors(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, leafErrors(e)...)
		}
		return out
	}
	return []error{err}
}
