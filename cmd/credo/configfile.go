package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"reflect"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/credo-rl/credo/cmd/credo/internal/cli"
	"github.com/credo-rl/credo/internal/boundedread"
	"github.com/credo-rl/credo/rl"
)

// loadTrainConfig reads a --config (or --train-config) file over c. A key
// may also be its setting's flag name (kl_coef or kl-coef for kl_beta,
// place_beta for credit.beta): each such key is read as its setting's,
// with a one-line notice on w naming the key config.json uses (issue 27:
// {"kl_coef": …} was refused as unknown). `credo help config` lists both.
func loadTrainConfig(path string, c *rl.Config, w io.Writer) error {
	data, err := boundedread.ReadFile(path, boundedread.Settings)
	if err != nil {
		return fmt.Errorf("config file: %w", err)
	}
	var tree map[string]any
	if yaml.Unmarshal(data, &tree) != nil || tree == nil { // YAML reads JSON too
		return configPosition(rl.DecodeConfig(path, data, c), data) // its error says what is wrong
	}
	top := map[string]bool{} // the first part of every key: kept as it is
	for _, k := range cli.SettingKeys(reflect.TypeOf(*c), "") {
		first, _, _ := strings.Cut(k, ".")
		top[first] = true
	}
	fs := newFlags("train", "", io.Discard, io.Discard) // train's flags name the keys
	scratch := rl.DefaultConfig()
	trainFlags(fs, &scratch)
	keys := fs.Keys()
	byFlag := map[string]string{}
	for key, flag := range keys {
		byFlag[flag] = key
	}
	renamed := false
	for _, k := range slices.Sorted(maps.Keys(tree)) {
		key, ok := byFlag[strings.ReplaceAll(k, "_", "-")]
		if top[k] || !ok || key == k {
			continue
		}
		if err := setPath(tree, key, tree[k]); err != nil {
			return fmt.Errorf("config file %s: %s: %w", path, k, err)
		}
		delete(tree, k)
		renamed = true
		fmt.Fprintf(w, "config file %s: %q is --%s's name; read as the setting's key %q (config.json's)\n", path, k, keys[key], key)
	}
	if !renamed {
		return configPosition(rl.DecodeConfig(path, data, c), data)
	}
	js, err := json.Marshal(tree)
	if err != nil {
		return fmt.Errorf("config file %s: %w", path, err)
	}
	return rl.DecodeConfig(path+" (as JSON)", js, c)
}

// setPath sets tree's dotted key (credit.beta) to v, refusing a key the
// file already gives.
func setPath(tree map[string]any, key string, v any) error {
	parts := strings.Split(key, ".")
	for _, p := range parts[:len(parts)-1] {
		sub, ok := tree[p].(map[string]any)
		if !ok {
			if _, there := tree[p]; there {
				return fmt.Errorf("%s is also given, as %s", key, p)
			}
			sub = map[string]any{}
			tree[p] = sub
		}
		tree = sub
	}
	last := parts[len(parts)-1]
	if _, there := tree[last]; there {
		return fmt.Errorf("the file also gives %s, the same setting", key)
	}
	tree[last] = v
	return nil
}

// printConfigKeys is `credo help config`: every training setting's key in
// a config file (and config.json), the flag that sets it, and its help.
func printConfigKeys(w io.Writer) {
	fmt.Fprintln(w, "Keys of a train --config or compare --train-config file (JSON or YAML; nested keys")
	fmt.Fprintln(w, "such as credit.beta are objects: {\"credit\": {\"beta\": 0.5}}). A flag's name works as")
	fmt.Fprintln(w, "a key too (kl_coef, place_beta), read as the setting's key with a notice.")
	fmt.Fprintln(w)
	ss := trainSettings()
	width := 0
	for _, s := range ss {
		width = max(width, len(s.Key))
	}
	for _, s := range ss {
		fmt.Fprintf(w, "  %-*s  --%s\n  %*s    %s\n", width, s.Key, s.Flag, width, "", s.Usage)
	}
}
