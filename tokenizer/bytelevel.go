package tokenizer

import "unicode/utf8"

// byteLevel is GPT-2's reversible byte↔character mapping, which byte-level
// BPE vocabularies are written in: printable Latin-1 bytes stand for
// themselves, the other 68 bytes for U+0100 onwards in order (so the space
// 0x20 is 'Ġ' U+0120 and '\n' is 'Ċ' U+010A).
type byteLevel struct {
	toRune   [256]rune
	fromRune map[rune]byte
}

func newByteLevel() *byteLevel {
	bl := &byteLevel{fromRune: make(map[rune]byte, 256)}
	n := 0
	for b := 0; b < 256; b++ {
		printable := (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF)
		r := rune(b)
		if !printable {
			r = rune(256 + n)
			n++
		}
		bl.toRune[b] = r
		bl.fromRune[r] = byte(b)
	}
	return bl
}

// decode turns a vocabulary string back into the raw bytes it stands for;
// ok is false when it holds a character outside the mapping.
func (bl *byteLevel) decode(s string, buf []byte) ([]byte, bool) {
	for _, r := range s {
		b, ok := bl.fromRune[r]
		if !ok {
			return buf, false
		}
		buf = append(buf, b)
	}
	return buf, true
}

// encode maps raw bytes to the vocabulary's alphabet.
func (bl *byteLevel) encode(raw []byte) string {
	buf := make([]byte, 0, 2*len(raw))
	for _, b := range raw {
		buf = utf8.AppendRune(buf, bl.toRune[b])
	}
	return string(buf)
}
