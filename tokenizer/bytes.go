package tokenizer

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/credo-rl/credo/internal/atomicfile"
)

// Names of the byte-level tokenizer's default special tokens.
const (
	BOSName       = "<|bos|>"
	EOSName       = "<|eos|>"
	PADName       = "<|pad|>"
	UserName      = "<|user|>"
	AssistantName = "<|assistant|>"
)

// DefaultSpecials returns the byte-level tokenizer's default special tokens
// in id order (ids 256, 257, …): the roles, then the tags tasks use.
func DefaultSpecials() []string {
	return []string{
		BOSName, EOSName, PADName, UserName, AssistantName,
		"<think>", "</think>", "<tool_call>", "</tool_call>", "<answer>", "</answer>",
	}
}

// maxSpecials bounds the special list read from a file.
const maxSpecials = 1 << 16

// Bytes is the byte-level tokenizer: ids 0–255 are the raw bytes, ids from
// 256 on are named special tokens. It is immutable and safe for concurrent use.
type Bytes struct {
	names  []string // names[i] is the name of id 256+i
	byName map[string]int32
	m      *matcher
}

var _ Tokenizer = (*Bytes)(nil)

// NewBytes returns a byte-level tokenizer with the default specials
// (DefaultSpecials) followed by extra ones. A name must be non-empty and
// unique.
func NewBytes(extra ...string) (*Bytes, error) {
	return newBytes(append(DefaultSpecials(), extra...))
}

// newBytes builds the tokenizer from the full special list in id order; it
// must hold the five role tokens.
func newBytes(names []string) (*Bytes, error) {
	if len(names) > maxSpecials {
		return nil, fmt.Errorf("byte tokenizer: %d special tokens, at most %d", len(names), maxSpecials)
	}
	b := &Bytes{names: append([]string(nil), names...), byName: make(map[string]int32, len(names))}
	sp := make([]special, len(names))
	for i, n := range names {
		if n == "" {
			return nil, fmt.Errorf("byte tokenizer: special token %d has an empty name", 256+i)
		}
		if _, dup := b.byName[n]; dup {
			return nil, fmt.Errorf("byte tokenizer: special token %q appears twice", n)
		}
		b.byName[n] = int32(256 + i)
		sp[i] = special{name: n, id: int32(256 + i)}
	}
	for _, n := range []string{BOSName, EOSName, PADName, UserName, AssistantName} {
		if _, ok := b.byName[n]; !ok {
			return nil, fmt.Errorf("byte tokenizer: special token %q is missing", n)
		}
	}
	b.m = newMatcher(sp)
	return b, nil
}

// Encode returns one token per byte, except where a special name occurs
// (longest name first), which becomes its single token.
func (b *Bytes) Encode(text string) ([]int32, [][2]int) {
	ids := make([]int32, 0, len(text))
	offs := make([][2]int, 0, len(text))
	return b.m.encodeWithSpecials(text, ids, offs, encodeRawBytes)
}

func encodeRawBytes(s string, base int, ids []int32, offs [][2]int) ([]int32, [][2]int) {
	for i := 0; i < len(s); i++ {
		ids = append(ids, int32(s[i]))
		offs = append(offs, [2]int{base + i, base + i + 1})
	}
	return ids, offs
}

// Decode concatenates the tokens' bytes; unknown ids decode to nothing.
func (b *Bytes) Decode(ids []int32) string {
	buf := make([]byte, 0, len(ids))
	for _, id := range ids {
		buf = b.appendToken(buf, id)
	}
	return string(buf)
}

func (b *Bytes) appendToken(buf []byte, id int32) []byte {
	switch {
	case id >= 0 && id < 256:
		return append(buf, byte(id))
	case id >= 256 && int(id)-256 < len(b.names):
		return append(buf, b.names[id-256]...)
	}
	return buf
}

// TokenBytes returns the byte or special name of id, nil for an unknown id.
func (b *Bytes) TokenBytes(id int32) []byte {
	if id < 0 || int(id) >= b.VocabSize() {
		return nil
	}
	return b.appendToken(nil, id)
}

// VocabSize is 256 plus the number of special tokens.
func (b *Bytes) VocabSize() int { return 256 + len(b.names) }

// Special looks up a special token by name.
func (b *Bytes) Special(name string) (int32, bool) {
	id, ok := b.byName[name]
	return id, ok
}

// Specials returns the special-token names in id order (ids 256, 257, …).
func (b *Bytes) Specials() []string { return append([]string(nil), b.names...) }

// EncodePrompt renders <|bos|><|user|>{prompt}<|assistant|>. The prompt is
// encoded on its own, so its text can never merge with the role tokens into
// a longer special name.
func (b *Bytes) EncodePrompt(prompt string) []int32 {
	ids := make([]int32, 0, len(prompt)+3)
	ids = append(ids, b.byName[BOSName], b.byName[UserName])
	ids, _ = b.m.encodeWithSpecials(prompt, ids, nil, encodeRawBytes)
	return append(ids, b.byName[AssistantName])
}

// EOS is <|eos|>.
func (b *Bytes) EOS() int32 { return b.byName[EOSName] }

// PAD is <|pad|>.
func (b *Bytes) PAD() int32 { return b.byName[PADName] }

// Save writes DescriptorFile (type and special list) into dir, creating it.
func (b *Bytes) Save(dir string) error {
	data, err := json.MarshalIndent(descriptor{Type: KindBytes, Specials: b.names}, "", "  ")
	if err != nil {
		return fmt.Errorf("save byte tokenizer: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("save byte tokenizer: %w", err)
	}
	if err := atomicfile.Write(filepath.Join(dir, DescriptorFile), append(data, '\n')); err != nil {
		return fmt.Errorf("save byte tokenizer: %w", err)
	}
	return nil
}
