package tokenizer

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/text/unicode/norm"

	"github.com/credo-rl/credo/internal/atomicfile"
)

// Encode splits text at added tokens, NFC-normalizes the rest (when the file
// says so), pre-tokenizes it and runs BPE on each pre-token. It adds no BOS.
//
// Offsets refer to text. Where NFC changes the text, normalization works on
// segments (a starter character and the combining marks after it): a token
// boundary that falls inside a changed segment is moved to the segment's end,
// so the token holding the segment's first character covers all of its
// original bytes and the next token may get an empty range. Decode returns
// the normalized text.
func (t *BPE) Encode(text string) ([]int32, [][2]int) {
	n := len(text)/3 + 1
	return t.added.encodeWithSpecials(text, make([]int32, 0, n), make([][2]int, 0, n), t.encodePlain)
}

// encodePlain encodes text without added tokens; base is its offset in the
// text given to Encode.
func (t *BPE) encodePlain(s string, base int, ids []int32, offs [][2]int) ([]int32, [][2]int) {
	if t.nfc && !norm.NFC.IsNormalString(s) {
		return t.encodeNormalized(s, base, ids, offs)
	}
	t.split.split(s, func(a, b int) {
		if t.missingBytes && t.hasMissing(s[a:b]) {
			ids, offs = t.wordDropping(s[a:b], base+a, ids, offs)
			return
		}
		start := len(ids)
		ids = t.word(s[a:b], ids)
		pos := base + a
		for _, id := range ids[start:] {
			l := int(t.tokOff[id+1] - t.tokOff[id])
			offs = append(offs, [2]int{pos, pos + l})
			pos += l
		}
	})
	return ids, offs
}

// encodeNormalized encodes NFC(s) and maps the offsets back onto s.
func (t *BPE) encodeNormalized(s string, base int, ids []int32, offs [][2]int) ([]int32, [][2]int) {
	type seg struct{ origEnd, normEnd int }
	var it norm.Iter
	it.InitString(norm.NFC, s)
	normed := make([]byte, 0, len(s)+8)
	var segs []seg
	for !it.Done() {
		normed = append(normed, it.Next()...)
		segs = append(segs, seg{it.Pos(), len(normed)})
	}
	first := len(offs)
	ids, offs = t.encodePlain(string(normed), 0, ids, offs)
	// toOrig maps a boundary in normed onto s: a segment's start stays its
	// start, a point inside a segment moves to the segment's end. It is
	// monotone, so tiling is kept. Calls come in increasing order.
	k, origStart, normStart := 0, 0, 0
	toOrig := func(p int) int {
		for k < len(segs) && segs[k].normEnd <= p {
			origStart, normStart = segs[k].origEnd, segs[k].normEnd
			k++
		}
		if p == normStart || k == len(segs) {
			return origStart
		}
		return segs[k].origEnd
	}
	for i := first; i < len(offs); i++ {
		a := toOrig(offs[i][0])
		offs[i] = [2]int{base + a, base + toOrig(offs[i][1])}
	}
	return ids, offs
}

// Decode concatenates the tokens' bytes (byte-level BPE tokens decode to
// raw bytes, added tokens to their content); unknown ids decode to nothing.
func (t *BPE) Decode(ids []int32) string {
	buf := make([]byte, 0, 4*len(ids))
	for _, id := range ids {
		if id >= 0 && int(id) < len(t.tokOff)-1 {
			buf = append(buf, t.tokData[t.tokOff[id]:t.tokOff[id+1]]...)
		}
	}
	return string(buf)
}

// TokenBytes returns a copy of the bytes of id, nil for an unknown id.
func (t *BPE) TokenBytes(id int32) []byte {
	if id < 0 || int(id) >= len(t.tokOff)-1 || t.tokOff[id] == t.tokOff[id+1] {
		return nil
	}
	return append([]byte(nil), t.tokData[t.tokOff[id]:t.tokOff[id+1]]...)
}

// VocabSize is one more than the largest id of the vocabulary and the added
// tokens (a model's embedding table may be larger).
func (t *BPE) VocabSize() int { return len(t.tokOff) - 1 }

// Special looks up an added token by its content.
func (t *BPE) Special(name string) (int32, bool) {
	id, ok := t.addedID[name]
	return id, ok
}

// BOS returns the beginning-of-sequence token, if the tokenizer has one.
func (t *BPE) BOS() (int32, bool) { return t.bos, t.bos >= 0 }

// EOS is <|im_end|> for ChatML vocabularies, <|eot_id|> for Llama-3's,
// otherwise the configured or conventional end-of-text token.
func (t *BPE) EOS() int32 { return t.eos }

// PAD is the file's pad token if it names one, else <|endoftext|>, else EOS.
func (t *BPE) PAD() int32 { return t.pad }

// RenderPrompt returns the text EncodePrompt encodes (without a plain
// template's BOS):
//
//	ChatML:  <|im_start|>user\n{prompt}<|im_end|>\n<|im_start|>assistant\n
//	         (after the template's default system turn, if it has one)
//	Llama-3: <|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\n{prompt}<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n
//	plain:   {prompt}
func (t *BPE) RenderPrompt(prompt string) string {
	switch t.chat {
	case chatML:
		return t.system + "<|im_start|>user\n" + prompt + "<|im_end|>\n<|im_start|>assistant\n"
	case chatLlama3:
		return "<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\n" + prompt +
			"<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n"
	}
	return prompt
}

// EncodePrompt encodes RenderPrompt(prompt) as one text, as a Hugging Face
// chat template followed by tokenization does (added-token names inside the
// prompt become their tokens); a plain template starts with BOS, if any.
func (t *BPE) EncodePrompt(prompt string) []int32 {
	ids, _ := t.Encode(t.RenderPrompt(prompt))
	if t.chat == chatPlain && t.bos >= 0 {
		ids = append([]int32{t.bos}, ids...)
	}
	return ids
}

// Save writes tokenizer.json (and tokenizer_config.json, if one was loaded)
// as read, and a DescriptorFile naming the kind, into dir.
func (t *BPE) Save(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("save tokenizer: %w", err)
	}
	if err := atomicfile.Write(filepath.Join(dir, HFFile), t.raw); err != nil {
		return fmt.Errorf("save tokenizer: %w", err)
	}
	if t.rawConfig != nil {
		if err := atomicfile.Write(filepath.Join(dir, HFConfigFile), t.rawConfig); err != nil {
			return fmt.Errorf("save tokenizer: %w", err)
		}
	}
	data, err := json.Marshal(descriptor{Type: KindBPE})
	if err != nil {
		return fmt.Errorf("save tokenizer: %w", err)
	}
	if err := atomicfile.Write(filepath.Join(dir, DescriptorFile), append(data, '\n')); err != nil {
		return fmt.Errorf("save tokenizer: %w", err)
	}
	return nil
}
