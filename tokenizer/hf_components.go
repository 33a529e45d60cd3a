package tokenizer

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/dlclark/regexp2"
)

// parseNormalizer accepts null, NFC, or a Sequence of those.
func parseNormalizer(raw json.RawMessage) (nfc bool, err error) {
	if isNull(raw) {
		return false, nil
	}
	var c hfComponent
	if err := json.Unmarshal(raw, &c); err != nil {
		return false, jsonError(err)
	}
	switch c.Type {
	case "NFC":
		return true, nil
	case "Sequence":
		for i, r := range c.Normalizers {
			n, err := parseNormalizer(r)
			if err != nil {
				return false, fmt.Errorf("normalizers[%d]: %w", i, err)
			}
			nfc = nfc || n
		}
		return nfc, nil
	}
	return false, fmt.Errorf("type %q is not supported (only null, NFC, or a Sequence of NFC)", c.Type)
}

// parsePreTokenizer builds the splitter from Split and ByteLevel entries
// (alone or in a Sequence); exactly one ByteLevel must be present, since the
// vocabulary is written in its alphabet.
func parsePreTokenizer(raw json.RawMessage) (splitter, error) {
	var parts seqSplitter
	byteLevels := 0
	var walk func(raw json.RawMessage, where string) error
	walk = func(raw json.RawMessage, where string) error {
		var c hfComponent
		if err := json.Unmarshal(raw, &c); err != nil {
			return fmt.Errorf("%s: %w", where, jsonError(err))
		}
		switch c.Type {
		case "Sequence":
			for i, r := range c.Pretokenizers {
				if err := walk(r, fmt.Sprintf("%s.pretokenizers[%d]", where, i)); err != nil {
					return err
				}
			}
		case "ByteLevel":
			if c.AddPrefixSpace {
				return fmt.Errorf("%s: ByteLevel with add_prefix_space is not supported (it changes the text)", where)
			}
			byteLevels++
			if c.UseRegex == nil || *c.UseRegex { // the default is true
				parts = append(parts, gpt2Splitter{})
			}
		case "Split":
			if c.Behavior != "Isolated" {
				return fmt.Errorf("%s: Split behavior %q is not supported (only \"Isolated\")", where, c.Behavior)
			}
			if c.Invert {
				return fmt.Errorf("%s: Split with invert is not supported", where)
			}
			var pattern string
			switch {
			case c.Pattern != nil && c.Pattern.Regex != nil:
				pattern = *c.Pattern.Regex
			case c.Pattern != nil && c.Pattern.String != nil:
				pattern = regexp2.Escape(*c.Pattern.String)
			default:
				return fmt.Errorf("%s: Split has no pattern (want {\"Regex\": …} or {\"String\": …})", where)
			}
			if pattern == "" {
				return fmt.Errorf("%s: Split pattern is empty", where)
			}
			s, err := splitterFor(pattern)
			if err != nil {
				return fmt.Errorf("%s: Split pattern %q: %w", where, pattern, err)
			}
			parts = append(parts, s)
		case "":
			return fmt.Errorf("%s: type is missing", where)
		default:
			return fmt.Errorf("%s: pre-tokenizer type %q is not supported (only Sequence, Split and ByteLevel)", where, c.Type)
		}
		return nil
	}
	if isNull(raw) {
		return nil, errors.New("none given, but a byte-level BPE needs a ByteLevel pre-tokenizer")
	}
	if err := walk(raw, "pre_tokenizer"); err != nil {
		return nil, err
	}
	if byteLevels != 1 {
		return nil, fmt.Errorf("%d ByteLevel pre-tokenizers, want exactly 1 (only byte-level BPE is supported)", byteLevels)
	}
	switch len(parts) {
	case 0:
		return wholeSplitter{}, nil
	case 1:
		return parts[0], nil
	}
	return parts, nil
}

func isNull(raw json.RawMessage) bool {
	s := strings.TrimSpace(string(raw))
	return s == "" || s == "null"
}

// chooseRoles picks the chat template and the BOS, EOS and PAD tokens.
// ChatML when <|im_start|> and <|im_end|> exist (EOS <|im_end|>); Llama-3's
// header template when its header tokens exist (EOS <|eot_id|>); otherwise
// the configuration's bos/eos, or well-known names. PAD is the file's pad
// token if named, else <|endoftext|>, else EOS. A role in
// tokenizer_config.json that names no added token is ignored.
func (t *BPE) chooseRoles(cfg hfConfig, padName string) error {
	has := func(n string) bool { _, ok := t.Special(n); return ok }
	id := func(n string) int32 { v, _ := t.Special(n); return v }
	names := map[string]string{}
	for role, raw := range map[string]json.RawMessage{"bos_token": cfg.BOS, "eos_token": cfg.EOS, "pad_token": cfg.PAD} {
		n, err := tokenName(raw)
		if err != nil {
			return fmt.Errorf("parse %s: %s: %w", HFConfigFile, role, err)
		}
		if has(n) { // a name that is no added token is ignored
			names[role] = n
		}
	}
	first := func(cands ...string) string {
		for _, c := range cands {
			if c != "" && has(c) {
				return c
			}
		}
		return ""
	}
	var eos string
	switch {
	case has("<|im_start|>") && has("<|im_end|>"):
		t.chat, eos = chatML, "<|im_end|>"
		t.system = defaultSystem(cfg.ChatTemplate)
	case has("<|start_header_id|>") && has("<|end_header_id|>") && has("<|eot_id|>"):
		t.chat, eos = chatLlama3, "<|eot_id|>"
	default:
		t.chat = chatPlain
		eos = first(names["eos_token"], "<|endoftext|>", "<|end_of_text|>", "</s>", "<|eos|>")
	}
	if eos == "" {
		return fmt.Errorf("parse %s: no end-of-sequence token: no eos_token in %s and none of <|im_end|>, <|endoftext|>, <|end_of_text|>, </s> exists", HFFile, HFConfigFile)
	}
	t.eos = id(eos)
	if b := first(names["bos_token"], "<|begin_of_text|>", "<s>", "<|startoftext|>"); b != "" {
		t.bos = id(b)
	}
	if padName != "" && !has(padName) {
		return fmt.Errorf("parse %s: padding.pad_token %q is not a token", HFFile, padName)
	}
	t.pad = id(first(padName, names["pad_token"], "<|endoftext|>", eos))
	return nil
}
