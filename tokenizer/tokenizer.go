package tokenizer

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/credo-rl/credo/internal/boundedread"
)

// Tokenizer converts between text and token ids.
//
// Implementations are safe for concurrent use.
type Tokenizer interface {
	// Encode splits text into tokens and reports each token's byte range
	// [start, end) in text. The ranges tile text. Special-token names that
	// occur in text (e.g. "<think>") become their single token.
	Encode(text string) (ids []int32, offsets [][2]int)
	// Decode concatenates the bytes of the tokens; special tokens decode to
	// their names and unknown ids to nothing.
	Decode(ids []int32) string
	// TokenBytes returns a copy of the bytes one token stands for (a special
	// token: its name), or nil for an unknown id.
	TokenBytes(id int32) []byte
	// VocabSize is one more than the largest id the tokenizer can produce.
	VocabSize() int
	// Special looks up a special token by name.
	Special(name string) (int32, bool)
	// EncodePrompt renders a user prompt the way the model expects it right
	// before its answer (chat template), as token ids.
	EncodePrompt(prompt string) []int32
	// EOS is the token that ends a response.
	EOS() int32
	// PAD is the token used to pad a batch.
	PAD() int32
	// Save writes the tokenizer into a checkpoint folder so that Load(dir)
	// gets it back.
	Save(dir string) error
}

// File names a tokenizer uses inside a checkpoint folder.
const (
	// DescriptorFile names the kind of tokenizer a folder holds (and, for the
	// byte-level kind, its special tokens).
	DescriptorFile = "credo_tokenizer.json"
	// HFFile is the Hugging Face tokenizer definition.
	HFFile = "tokenizer.json"
	// HFConfigFile is the optional Hugging Face tokenizer configuration
	// (special-token roles, chat template).
	HFConfigFile = "tokenizer_config.json"
)

// Kinds recorded in DescriptorFile.
const (
	KindBytes = "bytes"
	KindBPE   = "hf-bpe"
)

// descriptor is the content of DescriptorFile.
type descriptor struct {
	Type     string   `json:"type"`
	Specials []string `json:"specials,omitempty"` // KindBytes: names of ids 256, 257, …
}

// Load reads the tokenizer saved in dir. A DescriptorFile says which kind
// the folder holds; without one, a Hugging Face tokenizer.json is loaded.
func Load(dir string) (Tokenizer, error) {
	data, err := boundedread.ReadFile(filepath.Join(dir, DescriptorFile), boundedread.Settings)
	switch {
	case err == nil:
		var d descriptor
		if err := json.Unmarshal(data, &d); err != nil {
			return nil, fmt.Errorf("load tokenizer: parse %s: %w", filepath.Join(dir, DescriptorFile), err)
		}
		switch d.Type {
		case KindBytes:
			b, err := newBytes(d.Specials)
			if err != nil {
				return nil, fmt.Errorf("load tokenizer: %s: %w", filepath.Join(dir, DescriptorFile), err)
			}
			return b, nil
		case KindBPE:
			return LoadBPE(dir)
		default:
			return nil, fmt.Errorf("load tokenizer: %s: unknown type %q (want %q or %q)",
				filepath.Join(dir, DescriptorFile), d.Type, KindBytes, KindBPE)
		}
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("load tokenizer: %w", err)
	}
	if _, err := os.Stat(filepath.Join(dir, HFFile)); err == nil {
		return LoadBPE(dir)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("load tokenizer: %w", err)
	}
	return nil, fmt.Errorf("load tokenizer: %s holds neither %s (credo byte-level tokenizer) nor %s (Hugging Face tokenizer)",
		dir, DescriptorFile, HFFile)
}

// DecodeWithOffsets decodes ids and reports the byte range of each token in
// the decoded text: the ranges tile it, token i covering the bytes
// TokenBytes(ids[i]) contributed (an empty range for an unknown id).
func DecodeWithOffsets(t Tokenizer, ids []int32) (string, [][2]int) {
	offsets := make([][2]int, len(ids))
	var buf []byte
	for i, id := range ids {
		start := len(buf)
		buf = append(buf, t.TokenBytes(id)...)
		offsets[i] = [2]int{start, len(buf)}
	}
	return string(buf), offsets
}
