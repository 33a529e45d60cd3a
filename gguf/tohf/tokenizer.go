package tohf

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/credo-rl/credo/gguf"
)

// ggml token types (llama_token_type).
const (
	tokenUnknown     = 2
	tokenControl     = 3
	tokenUserDefined = 4
)

// The pre-tokenizers of llama.cpp's pre types (llama-vocab.cpp's regexes),
// as Hugging Face writes them. ByteLevel's own regex (use_regex) is GPT-2's.
var (
	byteLevel = func(useRegex bool) map[string]any {
		return map[string]any{"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true, "use_regex": useRegex}
	}
	split = func(re string) map[string]any {
		return map[string]any{"type": "Split", "pattern": map[string]string{"Regex": re}, "behavior": "Isolated", "invert": false}
	}
	sequence = func(ps ...map[string]any) map[string]any {
		return map[string]any{"type": "Sequence", "pretokenizers": ps}
	}
	cl100k = func(digits string) string {
		return `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}` + digits + `| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	}
	// digitsThenGPT2 is Digits(individual_digits) then ByteLevel: every
	// digit its own pre-token (\p{N} is Unicode's numbers, as Rust's
	// char::is_numeric that Digits tests).
	digitsThenGPT2 = sequence(split(`\p{N}`), byteLevel(true))
	preTokenizers  = map[string]map[string]any{
		"smollm": digitsThenGPT2, "starcoder": digitsThenGPT2, "refact": digitsThenGPT2, "command-r": digitsThenGPT2,
		"codeshell": digitsThenGPT2, "exaone": digitsThenGPT2, "minerva-7b": digitsThenGPT2,
		"gpt-2": byteLevel(true), "mpt": byteLevel(true), "olmo": byteLevel(true), "jais": byteLevel(true),
		"llama-bpe": sequence(split(cl100k("{1,3}")), byteLevel(false)),
		"qwen2":     sequence(split(cl100k("")), byteLevel(false)), "stablelm2": sequence(split(cl100k("")), byteLevel(false)),
	}
)

// vocab is the tokenizer metadata of a GGUF file.
type vocab struct {
	tokens []string
	types  []int64
	merges [][2]string
	pre    string
	// ids of the special roles, -1 when not set
	bos, eos, pad, unk int
	addBOS, addEOS     bool
}

func readVocab(f *gguf.File) (*vocab, error) {
	m, err := f.String("tokenizer.ggml.model")
	if err != nil {
		return nil, err
	}
	if m != "gpt2" {
		return nil, fmt.Errorf("tokenizer.ggml.model %q is not supported (only gpt2, byte-level BPE)", m)
	}
	v := &vocab{}
	if v.tokens, err = f.Strings("tokenizer.ggml.tokens"); err != nil {
		return nil, err
	}
	if f.Has("tokenizer.ggml.token_type") {
		if v.types, err = f.Ints("tokenizer.ggml.token_type"); err != nil {
			return nil, err
		}
		if len(v.types) != len(v.tokens) {
			return nil, fmt.Errorf("tokenizer.ggml.token_type has %d entries for %d tokens", len(v.types), len(v.tokens))
		}
	}
	lines, err := f.Strings("tokenizer.ggml.merges")
	if err != nil {
		return nil, err
	}
	for i, l := range lines {
		a, b, ok := strings.Cut(l, " ")
		if !ok || a == "" || b == "" || strings.Contains(b, " ") {
			return nil, fmt.Errorf("tokenizer.ggml.merges[%d] %q: want two tokens separated by one space", i, l)
		}
		v.merges = append(v.merges, [2]string{a, b})
	}
	if v.pre, err = f.String("tokenizer.ggml.pre"); err != nil {
		return nil, fmt.Errorf("%w: the pre-tokenizer cannot be known", err)
	}
	if _, ok := preTokenizers[v.pre]; !ok {
		return nil, fmt.Errorf("tokenizer.ggml.pre %q is not supported (known: %s)", v.pre, strings.Join(slices.Sorted(maps.Keys(preTokenizers)), ", "))
	}
	for _, r := range []struct {
		dst *int
		key string
	}{{&v.bos, "bos_token_id"}, {&v.eos, "eos_token_id"}, {&v.pad, "padding_token_id"}, {&v.unk, "unknown_token_id"}} {
		*r.dst = -1
		key := "tokenizer.ggml." + r.key
		if !f.Has(key) {
			continue
		}
		id, err := f.Int(key)
		if err != nil {
			return nil, err
		}
		if id < 0 || id >= int64(len(v.tokens)) {
			return nil, fmt.Errorf("%s = %d is not a token id (%d tokens)", key, id, len(v.tokens))
		}
		*r.dst = int(id)
	}
	if v.eos < 0 {
		return nil, fmt.Errorf("tokenizer.ggml.eos_token_id is missing: responses could not end")
	}
	v.addBOS, _ = f.Bool("tokenizer.ggml.add_bos_token")
	v.addEOS, _ = f.Bool("tokenizer.ggml.add_eos_token")
	return v, nil
}

// tokenizerJSON is tokenizer.json: a byte-level BPE over the GGUF
// vocabulary and merges, control and user-defined tokens as added tokens.
func (v *vocab) tokenizerJSON() ([]byte, error) {
	type added struct {
		ID         int    `json:"id"`
		Content    string `json:"content"`
		SingleWord bool   `json:"single_word"`
		LStrip     bool   `json:"lstrip"`
		RStrip     bool   `json:"rstrip"`
		Normalized bool   `json:"normalized"`
		Special    bool   `json:"special"`
	}
	var addedTokens []added
	seen := make(map[string]int, len(v.tokens))
	var vocabJSON bytes.Buffer
	vocabJSON.WriteByte('{')
	for id, t := range v.tokens {
		if prev, dup := seen[t]; dup {
			return nil, fmt.Errorf("token %q is both id %d and id %d", t, prev, id)
		}
		seen[t] = id
		if id > 0 {
			vocabJSON.WriteByte(',')
		}
		k, _ := json.Marshal(t)
		fmt.Fprintf(&vocabJSON, "%s:%d", k, id)
		if v.types == nil {
			continue
		}
		switch v.types[id] {
		case tokenUnknown, tokenControl:
			addedTokens = append(addedTokens, added{ID: id, Content: t, Special: true})
		case tokenUserDefined:
			addedTokens = append(addedTokens, added{ID: id, Content: t, Normalized: true})
		}
	}
	vocabJSON.WriteByte('}')
	post := any(map[string]any{"type": "ByteLevel", "add_prefix_space": true, "trim_offsets": false, "use_regex": true})
	if v.addBOS && v.bos >= 0 {
		post = bosTemplate(v.tokens[v.bos], v.bos)
	}
	doc := map[string]any{
		"version": "1.0", "truncation": nil, "padding": nil,
		"added_tokens":   addedTokens,
		"normalizer":     nil,
		"pre_tokenizer":  preTokenizers[v.pre],
		"post_processor": post,
		"decoder":        map[string]any{"type": "ByteLevel", "add_prefix_space": true, "trim_offsets": true, "use_regex": true},
		"model": map[string]any{
			"type": "BPE", "dropout": nil, "unk_token": nil, // bytes without a token are dropped, as llama.cpp drops them "continuing_subword_prefix": nil,
			"end_of_word_suffix": nil, "fuse_unk": false, "byte_fallback": false, "ignore_merges": false,
			"vocab": json.RawMessage(vocabJSON.Bytes()), "merges": v.merges,
		},
	}
	return marshal(doc, "")
}

// marshal is JSON without HTML escapes (<|im_end|>, not \u003c|im_end|\u003e).
func marshal(v any, indent string) ([]byte, error) {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	e.SetIndent("", indent)
	if err := e.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// bosTemplate is a TemplateProcessing post-processor that starts every
// sequence with BOS, as tokenizer.ggml.add_bos_token asks.
func bosTemplate(bos string, id int) map[string]any {
	seq := func(s string) map[string]any {
		return map[string]any{"Sequence": map[string]any{"id": s, "type_id": 0}}
	}
	sp := map[string]any{"SpecialToken": map[string]any{"id": bos, "type_id": 0}}
	return map[string]any{
		"type":           "TemplateProcessing",
		"single":         []any{sp, seq("A")},
		"pair":           []any{sp, seq("A"), sp, seq("B")},
		"special_tokens": map[string]any{bos: map[string]any{"id": bos, "ids": []int{id}, "tokens": []string{bos}}},
	}
}

// tokenizerConfig is tokenizer_config.json: the special roles, the chat
// template (tokenizer.chat_template) and the context length.
func (v *vocab) tokenizerConfig(chatTemplate string, context int) ([]byte, error) {
	cfg := map[string]any{
		"add_bos_token": v.addBOS, "add_eos_token": v.addEOS,
		"clean_up_tokenization_spaces": false, "model_max_length": context,
		"tokenizer_class": "PreTrainedTokenizerFast",
	}
	for role, id := range map[string]int{"bos_token": v.bos, "eos_token": v.eos, "pad_token": v.pad, "unk_token": v.unk} {
		if id >= 0 {
			cfg[role] = v.tokens[id]
		}
	}
	if chatTemplate != "" {
		cfg["chat_template"] = chatTemplate
	}
	return marshal(cfg, "  ")
}
