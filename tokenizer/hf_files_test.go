package tokenizer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBPESaveLoad(t *testing.T) {
	src := loadTiny(t)
	dir := t.TempDir()
	// A folder that held a byte-level tokenizer before: the last Save wins.
	if err := mustBytes(t).Save(dir); err != nil {
		t.Fatal(err)
	}
	if err := src.Save(dir); err != nil {
		t.Fatal(err)
	}
	got, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	tok, ok := got.(*BPE)
	if !ok {
		t.Fatalf("Load returned %T, want *BPE", got)
	}
	for _, c := range loadReference(t).Tiny {
		checkEncoding(t, tok, c)
	}
	data, _ := os.ReadFile(filepath.Join(dir, HFFile))
	orig, _ := os.ReadFile("testdata/tiny/tokenizer.json")
	if string(data) != string(orig) {
		t.Error("saved tokenizer.json differs from the file loaded")
	}
	if _, err := os.Stat(filepath.Join(dir, HFConfigFile)); err == nil {
		t.Error("Save wrote a tokenizer_config.json that was never loaded")
	}

	// With a config, it is copied too; a plain Hugging Face folder (no
	// descriptor) loads as well.
	q := t.TempDir()
	if err := os.WriteFile(filepath.Join(q, HFFile), orig, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := []byte(`{"eos_token": "<|im_end|>"}`)
	if err := os.WriteFile(filepath.Join(q, HFConfigFile), cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err = Load(q)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if err := got.Save(out); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(out, HFConfigFile)); string(data) != string(cfg) {
		t.Errorf("saved config = %q, want %q", data, cfg)
	}
}

func TestParseErrors(t *testing.T) {
	type edit func(m map[string]any)
	tests := []struct {
		name string
		edit edit
		raw  string // used instead of the edited tiny file when set
		want string
	}{
		{"WordPiece", func(m map[string]any) { model(m)["type"] = "WordPiece" }, "", `model type "WordPiece" is not supported`},
		{"Unigram", func(m map[string]any) {
			model(m)["type"] = "Unigram"
			model(m)["vocab"] = []any{[]any{"a", -1.5}}
		}, "", `model type "Unigram" is not supported`},
		{"no model type", func(m map[string]any) { delete(model(m), "type") }, "", "model.type is missing"},
		{"malformed", nil, `{"model": {"type": "BPE",`, "malformed JSON"},
		{"not an object", nil, `[1, 2]`, "parse tokenizer.json"},
		{"empty", nil, ``, "malformed JSON"},
		{"vocab missing", func(m map[string]any) { delete(model(m), "vocab") }, "", "vocab is missing"},
		{"vocab wrong type", func(m map[string]any) { model(m)["vocab"] = []any{1} }, "", "vocab"},
		{"vocab id negative", func(m map[string]any) { model(m)["vocab"].(map[string]any)["x"] = -3.0 }, "", "outside"},
		{"vocab id huge", func(m map[string]any) { model(m)["vocab"].(map[string]any)["xyz"] = 1e9 }, "", "outside"},
		{"vocab id twice", func(m map[string]any) { model(m)["vocab"].(map[string]any)["xyz"] = 0.0 }, "", "vocab id 0 is given to both"},
		{"byte missing", func(m map[string]any) { delete(model(m)["vocab"].(map[string]any), "Ġ") }, "", "no token for byte 0x20"},
		{"merge unknown", func(m map[string]any) {
			model(m)["merges"] = append(model(m)["merges"].([]any), []any{"Ġ", "qqq"})
		}, "", `"qqq" is not in vocab`},
		{"merge result unknown", func(m map[string]any) {
			model(m)["merges"] = []any{[]any{"z", "q"}}
		}, "", `"zq" is not in vocab`},
		{"merge bad string", func(m map[string]any) { model(m)["merges"] = []any{"a b c"} }, "", "want two tokens separated by one space"},
		{"merges wrong type", func(m map[string]any) { model(m)["merges"] = map[string]any{} }, "", "merges"},
		{"dropout", func(m map[string]any) { model(m)["dropout"] = 0.1 }, "", "dropout"},
		{"byte_fallback", func(m map[string]any) { model(m)["byte_fallback"] = true }, "", "byte_fallback"},
		{"subword prefix", func(m map[string]any) { model(m)["continuing_subword_prefix"] = "##" }, "", "continuing_subword_prefix"},
		{"normalizer NFKC", func(m map[string]any) { m["normalizer"] = map[string]any{"type": "NFKC"} }, "", `normalizer: type "NFKC" is not supported`},
		{"normalizer in sequence", func(m map[string]any) {
			m["normalizer"] = map[string]any{"type": "Sequence", "normalizers": []any{map[string]any{"type": "Lowercase"}}}
		}, "", `normalizers[0]: type "Lowercase"`},
		{"pre-tokenizer unknown", func(m map[string]any) { m["pre_tokenizer"] = map[string]any{"type": "Metaspace"} }, "", `pre-tokenizer type "Metaspace" is not supported`},
		{"pre-tokenizer nested unknown", func(m map[string]any) {
			m["pre_tokenizer"].(map[string]any)["pretokenizers"].([]any)[0].(map[string]any)["type"] = "Whitespace"
		}, "", `pre_tokenizer.pretokenizers[0]: pre-tokenizer type "Whitespace"`},
		{"pre-tokenizer null", func(m map[string]any) { m["pre_tokenizer"] = nil }, "", "needs a ByteLevel pre-tokenizer"},
		{"no ByteLevel", func(m map[string]any) {
			p := m["pre_tokenizer"].(map[string]any)
			p["pretokenizers"] = p["pretokenizers"].([]any)[:1]
		}, "", "0 ByteLevel pre-tokenizers"},
		{"Split behavior", func(m map[string]any) {
			m["pre_tokenizer"].(map[string]any)["pretokenizers"].([]any)[0].(map[string]any)["behavior"] = "Removed"
		}, "", `Split behavior "Removed" is not supported`},
		{"Split bad regex", func(m map[string]any) {
			m["pre_tokenizer"].(map[string]any)["pretokenizers"].([]any)[0].(map[string]any)["pattern"] = map[string]any{"Regex": "(a"}
		}, "", "Split pattern"},
		{"Split no pattern", func(m map[string]any) {
			delete(m["pre_tokenizer"].(map[string]any)["pretokenizers"].([]any)[0].(map[string]any), "pattern")
		}, "", "Split has no pattern"},
		{"add_prefix_space", func(m map[string]any) {
			m["pre_tokenizer"].(map[string]any)["pretokenizers"].([]any)[1].(map[string]any)["add_prefix_space"] = true
		}, "", "add_prefix_space"},
		{"added token twice", func(m map[string]any) {
			m["added_tokens"] = append(m["added_tokens"].([]any), map[string]any{"id": 900, "content": "<think>"})
		}, "", `"<think>" appears twice`},
		{"added token takes a vocab id", func(m map[string]any) {
			m["added_tokens"] = append(m["added_tokens"].([]any), map[string]any{"id": 300, "content": "<x>"})
		}, "", `token "<x>" has id 300, which the vocabulary gives to`},
		{"added token empty", func(m map[string]any) {
			m["added_tokens"] = append(m["added_tokens"].([]any), map[string]any{"id": 900, "content": ""})
		}, "", "empty content"},
		{"no EOS", func(m map[string]any) {
			for _, n := range []string{"<|im_end|>", "<|endoftext|>"} {
				addedToken(m, n)["content"] = n + "x"
			}
		}, "", "no end-of-sequence token"},
		{"pad not a token", func(m map[string]any) { m["padding"] = map[string]any{"pad_token": "<nope>"} }, "", `pad_token "<nope>" is not a token`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data := []byte(tc.raw)
			if tc.edit != nil {
				m := tinyJSON(t)
				tc.edit(m)
				data = marshal(t, m)
			}
			_, err := ParseBPE(data, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error = %v, want it to contain %q", err, tc.want)
			}
		})
	}
	// A bad tokenizer_config.json.
	data, _ := os.ReadFile("testdata/tiny/tokenizer.json")
	for cfg, want := range map[string]string{
		`{"eos_token": 5}`: "eos_token",
		`{"eos_token": `:   "parse tokenizer_config.json: malformed JSON",
	} {
		if _, err := ParseBPE(data, []byte(cfg)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("config %s: error = %v, want it to contain %q", cfg, err, want)
		}
	}
}

func TestLoadErrors(t *testing.T) {
	empty := t.TempDir()
	badDesc := t.TempDir()
	os.WriteFile(filepath.Join(badDesc, DescriptorFile), []byte(`{"type": "sentencepiece"}`), 0o644)
	brokenDesc := t.TempDir()
	os.WriteFile(filepath.Join(brokenDesc, DescriptorFile), []byte(`{"type": `), 0o644)
	badBytes := t.TempDir()
	os.WriteFile(filepath.Join(badBytes, DescriptorFile), []byte(`{"type": "bytes", "specials": ["<x>"]}`), 0o644)
	descNoFile := t.TempDir()
	os.WriteFile(filepath.Join(descNoFile, DescriptorFile), []byte(`{"type": "hf-bpe"}`), 0o644)
	badHF := t.TempDir()
	os.WriteFile(filepath.Join(badHF, HFFile), []byte(`{"model": {"type": "WordPiece", "vocab": {}}}`), 0o644)
	tests := []struct {
		dir  string
		want []string
	}{
		{empty, []string{"neither", DescriptorFile, HFFile}},
		{filepath.Join(empty, "missing"), []string{"neither"}},
		{badDesc, []string{`unknown type "sentencepiece"`}},
		{brokenDesc, []string{"parse", DescriptorFile}},
		{badBytes, []string{`"<|bos|>" is missing`}},
		{descNoFile, []string{HFFile, "no such file"}},
		{badHF, []string{`model type "WordPiece"`, badHF}},
	}
	for _, tc := range tests {
		_, err := Load(tc.dir)
		for _, w := range tc.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("Load(%s) error = %v, want it to contain %q", tc.dir, err, w)
			}
		}
	}
}
