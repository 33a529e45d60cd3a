package tokenizer

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/credo-rl/credo/internal/boundedread"
)

// BPE is a Hugging Face tokenizer.json byte-level BPE tokenizer (Qwen2/Qwen3,
// Llama-3, GPT-2 style). It is safe for concurrent use.
type BPE struct {
	// tokData[tokOff[id]:tokOff[id+1]] are the bytes of token id (empty for
	// an id the file does not define).
	tokData []byte
	tokOff  []int32
	byteID  [256]int32       // the token of each single byte; -1 for none (missingbytes.go)
	merges  map[uint64]merge // by pairKey(left, right)
	// vocab maps raw bytes to ids; only kept for ignoreMerges, where a word
	// found whole in the vocabulary skips the merges.
	vocab        map[string]int32
	ignoreMerges bool

	added   *matcher
	addedID map[string]int32
	nfc     bool
	split   splitter

	chat           chatStyle
	system         string // ChatML: the template's default system turn, or ""
	bos            int32  // -1 when there is none
	eos, pad       int32
	raw, rawConfig []byte // the files as read, for Save
	cache          wordCache
	missingBytes   bool // some byte has no token
}

var _ Tokenizer = (*BPE)(nil)

// chatStyle is the prompt template EncodePrompt renders.
type chatStyle int

const (
	chatPlain  chatStyle = iota // BOS (if any) + prompt
	chatML                      // Qwen: <|im_start|>user\n…<|im_end|>\n<|im_start|>assistant\n
	chatLlama3                  // <|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\n…
)

// maxTokenID bounds the ids a file may use, so a corrupt file cannot make
// Load allocate without limit.
const maxTokenID = 1 << 22

// LoadBPE reads tokenizer.json, and tokenizer_config.json when present, from dir.
func LoadBPE(dir string) (*BPE, error) {
	path := filepath.Join(dir, HFFile)
	data, err := boundedread.ReadFile(path, boundedread.Tokenizer)
	if err != nil {
		return nil, fmt.Errorf("load tokenizer: %w", err)
	}
	cpath := filepath.Join(dir, HFConfigFile)
	config, err := boundedread.ReadFile(cpath, boundedread.Tokenizer)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("load tokenizer: %w", err)
	}
	t, err := ParseBPE(data, config)
	if err != nil {
		return nil, fmt.Errorf("load tokenizer %s: %w", dir, err)
	}
	return t, nil
}

// ParseBPE builds the tokenizer from the contents of tokenizer.json and of
// tokenizer_config.json (nil when there is none). It accepts model type
// "BPE" with a byte-level alphabet, normalizer null or NFC, and pre-tokenizers
// made of Split (behavior Isolated) and ByteLevel; anything else is an error
// naming it. Added tokens are matched in the text as given (as Hugging Face
// does for "normalized": false, which is what Qwen and Llama-3 use); the
// decoder and post-processor are not read.
func ParseBPE(tokenizerJSON, configJSON []byte) (*BPE, error) {
	var f hfJSON
	err := json.Unmarshal(tokenizerJSON, &f)
	if err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("parse %s: %w", HFFile, jsonError(err))
		}
		// A type error (a Unigram vocab is a list, say) still leaves the
		// model type decoded: name the unsupported model first.
		if f.Model.Type == "" || f.Model.Type == "BPE" {
			return nil, fmt.Errorf("parse %s: %w", HFFile, jsonError(err))
		}
	}
	if f.Model.Type != "BPE" {
		if f.Model.Type == "" {
			return nil, fmt.Errorf("parse %s: model.type is missing (only \"BPE\" is supported)", HFFile)
		}
		return nil, fmt.Errorf("parse %s: model type %q is not supported (only \"BPE\")", HFFile, f.Model.Type)
	}
	t := &BPE{raw: append([]byte(nil), tokenizerJSON...), bos: -1}
	if configJSON != nil {
		t.rawConfig = append([]byte(nil), configJSON...)
	}
	if err := t.buildModel(&f.Model); err != nil {
		return nil, fmt.Errorf("parse %s: model: %w", HFFile, err)
	}
	if err := t.buildAdded(f.AddedTokens); err != nil {
		return nil, fmt.Errorf("parse %s: added_tokens: %w", HFFile, err)
	}
	if t.nfc, err = parseNormalizer(f.Normalizer); err != nil {
		return nil, fmt.Errorf("parse %s: normalizer: %w", HFFile, err)
	}
	if t.split, err = parsePreTokenizer(f.PreTokenizer); err != nil {
		return nil, fmt.Errorf("parse %s: pre_tokenizer: %w", HFFile, err)
	}
	var cfg hfConfig
	if configJSON != nil {
		if err := json.Unmarshal(configJSON, &cfg); err != nil {
			return nil, fmt.Errorf("parse %s: %w", HFConfigFile, jsonError(err))
		}
	}
	padName := ""
	if f.Padding != nil {
		padName = f.Padding.PadToken
	}
	if err := t.chooseRoles(cfg, padName); err != nil {
		return nil, err
	}
	return t, nil
}

// buildModel reads the vocabulary and merges.
func (t *BPE) buildModel(m *hfModel) error {
	switch {
	case m.Dropout != nil && *m.Dropout != 0:
		return fmt.Errorf("dropout %g is not supported", *m.Dropout)
	case m.ContinuingSubwordPrefix != nil && *m.ContinuingSubwordPrefix != "":
		return fmt.Errorf("continuing_subword_prefix %q is not supported (byte-level BPE has none)", *m.ContinuingSubwordPrefix)
	case m.EndOfWordSuffix != nil && *m.EndOfWordSuffix != "":
		return fmt.Errorf("end_of_word_suffix %q is not supported (byte-level BPE has none)", *m.EndOfWordSuffix)
	case m.ByteFallback:
		return errors.New("byte_fallback is not supported (that is SentencePiece-style BPE, not byte-level)")
	case isNull(m.Vocab):
		return errors.New("vocab is missing")
	}
	// The vocabulary and the merges are the bulk of the file: decode them
	// at the same time.
	var (
		merges    [][2]string
		mergesErr error
		done      = make(chan struct{})
	)
	go func() {
		defer close(done)
		merges, mergesErr = parseMerges(m.Merges)
	}()
	var vocab map[string]int64
	err := json.Unmarshal(m.Vocab, &vocab)
	<-done
	switch {
	case err != nil:
		return fmt.Errorf("vocab: %w", jsonError(err))
	case mergesErr != nil:
		return fmt.Errorf("merges: %w", mergesErr)
	case len(vocab) == 0:
		return errors.New("vocab is empty")
	}
	t.ignoreMerges = m.IgnoreMerges
	bl := newByteLevel()
	// Order the vocabulary by id to lay the token bytes out in one array.
	size := int64(0)
	for s, id := range vocab {
		if id < 0 || id >= maxTokenID {
			return fmt.Errorf("vocab entry %q has id %d, outside [0, %d)", s, id, maxTokenID)
		}
		size = max(size, id+1)
	}
	byID := make([]string, size)
	set := make([]bool, size)
	for s, id := range vocab {
		if set[id] {
			return fmt.Errorf("vocab id %d is given to both %q and %q", id, byID[id], s)
		}
		byID[id], set[id] = s, true
	}
	t.tokOff = make([]int32, size+1)
	t.tokData = make([]byte, 0, len(vocab)*6)
	if t.ignoreMerges {
		t.vocab = make(map[string]int32, len(vocab)) // raw bytes → id
	}
	for id, s := range byID {
		t.tokOff[id] = int32(len(t.tokData))
		if !set[id] {
			continue
		}
		var ok bool
		start := len(t.tokData)
		if t.tokData, ok = bl.decode(s, t.tokData); !ok {
			// Outside the byte alphabet: no input can produce it; it
			// decodes to its text.
			t.tokData = append(t.tokData[:start], s...)
			continue
		}
		if t.vocab != nil {
			t.vocab[string(t.tokData[start:])] = int32(id)
		}
	}
	t.tokOff[size] = int32(len(t.tokData))
	if err := t.checkBytes(bl, vocab); err != nil {
		return err
	}
	t.merges = make(map[uint64]merge, len(merges))
	var cat []byte
	for rank, mg := range merges {
		a, okA := vocab[mg[0]]
		b, okB := vocab[mg[1]]
		cat = append(append(cat[:0], mg[0]...), mg[1]...)
		ab, okAB := vocab[string(cat)]
		switch {
		case !okA:
			return fmt.Errorf("merge %d (%q %q): %q is not in vocab", rank, mg[0], mg[1], mg[0])
		case !okB:
			return fmt.Errorf("merge %d (%q %q): %q is not in vocab", rank, mg[0], mg[1], mg[1])
		case !okAB:
			return fmt.Errorf("merge %d (%q %q): %q is not in vocab", rank, mg[0], mg[1], mg[0]+mg[1])
		}
		k := pairKey(int32(a), int32(b))
		if _, dup := t.merges[k]; !dup { // the first (lowest) rank wins
			t.merges[k] = merge{rank: int32(rank), id: int32(ab)}
		}
	}
	return nil
}

// buildAdded reads the added tokens: matched in the text before anything
// else, decoded to their content.
func (t *BPE) buildAdded(tokens []hfAddedToken) error {
	t.addedID = make(map[string]int32, len(tokens))
	sp := make([]special, 0, len(tokens))
	size := int64(len(t.tokOff) - 1)
	for _, a := range tokens {
		switch {
		case a.ID < 0 || a.ID >= maxTokenID:
			return fmt.Errorf("token %q has id %d, outside [0, %d)", a.Content, a.ID, maxTokenID)
		case a.Content == "":
			return fmt.Errorf("token %d has empty content", a.ID)
		}
		if _, dup := t.addedID[a.Content]; dup {
			return fmt.Errorf("token %q appears twice", a.Content)
		}
		// An added token may repeat a vocabulary entry (GPT-2's
		// <|endoftext|>) but not take over another token's id: the merges
		// would then produce it for text it does not stand for.
		if a.ID < int64(len(t.tokOff)-1) {
			if v := t.tokData[t.tokOff[a.ID]:t.tokOff[a.ID+1]]; len(v) > 0 && string(v) != a.Content {
				return fmt.Errorf("token %q has id %d, which the vocabulary gives to %q", a.Content, a.ID, v)
			}
		}
		t.addedID[a.Content] = int32(a.ID)
		sp = append(sp, special{name: a.Content, id: int32(a.ID), lstrip: a.LStrip, rstrip: a.RStrip, singleWord: a.SingleWord})
		size = max(size, a.ID+1)
	}
	t.added = newMatcher(sp)
	if len(tokens) == 0 {
		return nil
	}
	// Rebuild the byte table with the added tokens' content in their slots
	// (overriding a vocab entry of the same id).
	content := make(map[int32]string, len(tokens))
	for _, a := range tokens {
		content[int32(a.ID)] = a.Content
	}
	data := make([]byte, 0, len(t.tokData)+len(tokens)*16)
	off := make([]int32, size+1)
	for id := int32(0); id < int32(size); id++ {
		off[id] = int32(len(data))
		if c, ok := content[id]; ok {
			data = append(data, c...)
		} else if int(id)+1 < len(t.tokOff) {
			data = append(data, t.tokData[t.tokOff[id]:t.tokOff[id+1]]...)
		}
	}
	off[size] = int32(len(data))
	t.tokData, t.tokOff = data, off
	return nil
}
