package run

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Change is one setting that differs between two JSON documents.
type Change struct {
	Key      string // dotted path of JSON keys, e.g. "train.optimizer.lr"
	Was, Now string // the values as JSON; "" where the key is absent
}

func (c Change) String() string {
	show := func(v string) string {
		if v == "" {
			return "(absent)"
		}
		return v
	}
	return fmt.Sprintf("%s: %s before, %s now", c.Key, show(c.Was), show(c.Now))
}

// Diff lists what differs between was and now, each encoded as JSON and
// compared key by key through nested objects (arrays and other values as
// a whole), sorted by key: the settings a saved file holds against the
// ones a command was given.
func Diff(was, now any) ([]Change, error) {
	a, err := toTree(was)
	if err != nil {
		return nil, fmt.Errorf("diff: %w", err)
	}
	b, err := toTree(now)
	if err != nil {
		return nil, fmt.Errorf("diff: %w", err)
	}
	var out []Change
	diffTree("", a, b, &out)
	return out, nil
}

// toTree decodes v's JSON into maps and leaves; numbers keep their text
// (both sides come from the same encoder, so equal values have equal text).
func toTree(v any) (any, error) {
	data, ok := v.(json.RawMessage)
	if !ok {
		var err error
		if data, err = json.Marshal(v); err != nil {
			return nil, err
		}
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var t any
	if err := dec.Decode(&t); err != nil {
		return nil, err
	}
	return t, nil
}

func diffTree(key string, a, b any, out *[]Change) {
	ma, aok := a.(map[string]any)
	mb, bok := b.(map[string]any)
	if aok && bok {
		keys := make([]string, 0, len(ma)+len(mb))
		for k := range ma {
			keys = append(keys, k)
		}
		for k := range mb {
			if _, ok := ma[k]; !ok {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			diffTree(strings.TrimPrefix(key+"."+k, "."), ma[k], mb[k], out)
		}
		return
	}
	ja, jb := leaf(a), leaf(b)
	if ja != jb {
		*out = append(*out, Change{Key: key, Was: ja, Now: jb})
	}
}

// leaf is v as compact JSON, "" for an absent value.
func leaf(v any) string {
	if v == nil {
		return ""
	}
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(data)
}
