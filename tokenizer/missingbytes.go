package tokenizer

import "fmt"

// Some byte-level vocabularies have no token for a few bytes that never
// occur in their training text: SmolLM2's lacks 21 (six ASCII control
// characters, and 0xC0, 0xC1, 0xF1, 0xF2, 0xF5–0xFF, which are never or
// rarely valid UTF-8). Hugging Face's BPE without an unk_token, and
// llama.cpp, drop such bytes; so does Encode. The bytes still belong to a
// token's range, so the offsets tile the text: the token before them
// (the first token of their pre-token when they lead it).

// checkBytes accepts a vocabulary that lacks tokens only for ASCII control
// characters and bytes 0x80–0xFF: one without printable ASCII or the space
// is not a byte-level vocabulary at all.
func (t *BPE) checkBytes(bl *byteLevel, vocab map[string]int64) error {
	for b := 0; b < 256; b++ {
		id, ok := vocab[string(bl.toRune[b])]
		if ok {
			t.byteID[b] = int32(id)
			continue
		}
		if b >= ' ' && b < 0x7f {
			return fmt.Errorf("vocab has no token for byte 0x%02x (%q): not a byte-level vocabulary", b, string(bl.toRune[b]))
		}
		t.byteID[b] = -1
		t.missingBytes = true
	}
	return nil
}

// hasMissing reports whether w holds a byte without a token.
func (t *BPE) hasMissing(w string) bool {
	for i := 0; i < len(w); i++ {
		if t.byteID[w[i]] < 0 {
			return true
		}
	}
	return false
}

// wordDropping appends the tokens of pre-token w (at byte pos of the text)
// without its tokenless bytes, and their ranges: each token from its first
// byte to the next token's (the first from the start of w, the last to its
// end). A pre-token of tokenless bytes only joins the previous token's
// range, if there is one.
func (t *BPE) wordDropping(w string, pos int, ids []int32, offs [][2]int) ([]int32, [][2]int) {
	kept := make([]byte, 0, len(w))
	at := make([]int, 0, len(w)) // where each kept byte is in w
	for i := 0; i < len(w); i++ {
		if t.byteID[w[i]] >= 0 {
			kept = append(kept, w[i])
			at = append(at, i)
		}
	}
	if len(kept) == 0 {
		if len(offs) > 0 {
			offs[len(offs)-1][1] = pos + len(w)
		}
		return ids, offs
	}
	first := len(ids)
	ids = t.word(string(kept), ids)
	p := 0
	for k, id := range ids[first:] {
		start := pos + at[p]
		if k == 0 {
			start = pos
		}
		if k > 0 {
			offs[len(offs)-1][1] = start
		}
		offs = append(offs, [2]int{start, pos + len(w)})
		p += int(t.tokOff[id+1] - t.tokOff[id])
	}
	return ids, offs
}
