package wire

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// Str reads a string, which must be valid Unicode: valid UTF-8, and no
// lone UTF-16 surrogate in a \u escape (ranges index the UTF-8 bytes, so
// both sides must agree on them).
func (d *Decoder) Str() (string, error) {
	b, err := d.strBytes()
	return string(b), err
}

// StrView is Str without the copy where it can: a string with no escapes
// shares the body's bytes, so the body must outlive it and never change
// (a request's body does both). A verify request's response texts are
// most of its body: read this way they cost nothing beyond it.
func (d *Decoder) StrView() (string, error) {
	if d.Peek() == '"' {
		start := d.i + 1
		b, err := d.strBytes()
		if err == nil && len(b) > 0 && &b[0] == &d.data[start] { // not unescaped into d.text
			return unsafe.String(&b[0], len(b)), nil
		}
		return string(b), err
	}
	return d.Str()
}

// key reads an object key: Str, but the schema's keys come back as
// constants rather than a copy.
func (d *Decoder) key() (string, error) {
	b, err := d.strBytes()
	if err != nil {
		return "", err
	}
	if k, ok := d.keys[string(b)]; ok { // the conversion allocates nothing
		return k, nil
	}
	return string(b), nil
}

// Discard reads a string that is not kept (a verdict's reason), checked
// as Str checks it, without copying it.
func (d *Decoder) Discard() error {
	_, err := d.strBytes()
	return err
}

// Strings reads a list of at most limit strings.
func (d *Decoder) Strings(limit int) ([]string, error) {
	var out []string
	err := d.Array(limit, func(int) error {
		s, err := d.Str()
		out = append(out, s)
		return err
	})
	return out, err
}

// strBytes is Str's bytes: the body's own, or for a string with escapes
// d.text's, valid until the next call.
func (d *Decoder) strBytes() ([]byte, error) {
	if d.Peek() != '"' {
		return nil, d.Errorf("want a string, got %s", d.describe())
	}
	start := d.i + 1
	for j := start; j < len(d.data); j++ {
		switch c := d.data[j]; {
		case c == '"':
			s := d.data[start:j]
			if !utf8.Valid(s) {
				return nil, d.Errorf("the string is not valid UTF-8")
			}
			d.i = j + 1
			return s, nil
		case c == '\\':
			return d.escaped(start)
		case c < 0x20:
			return nil, d.Errorf("control character %#x in a string (escape it)", c)
		}
	}
	return nil, d.Errorf("unterminated string")
}

// escaped reads a string holding escapes, from its first byte at start,
// copying the runs between escapes whole into d.text (reused: the
// response texts of a batch are megabytes).
func (d *Decoder) escaped(start int) ([]byte, error) {
	b := d.text[:0]
	defer func() { d.text = b[:0] }()
	j := start
	for j < len(d.data) {
		run := j
		for run < len(d.data) && d.data[run] != '"' && d.data[run] != '\\' && d.data[run] >= 0x20 {
			run++
		}
		b, j = append(b, d.data[j:run]...), run
		if j >= len(d.data) {
			break
		}
		switch c := d.data[j]; {
		case c == '"':
			if !utf8.Valid(b) {
				return nil, d.Errorf("the string is not valid UTF-8")
			}
			d.i = j + 1
			return b, nil
		case c < 0x20:
			return nil, d.Errorf("control character %#x in a string (escape it)", c)
		}
		if j+1 >= len(d.data) {
			break
		}
		j += 2
		switch e := d.data[j-1]; e {
		case '"', '\\', '/':
			b = append(b, e)
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r, n, err := d.unicodeEscape(j)
			if err != nil {
				return nil, err
			}
			b = utf8.AppendRune(b, r)
			j += n
		default:
			return nil, d.Errorf("invalid escape \\%c in a string", e)
		}
	}
	return nil, d.Errorf("unterminated string")
}

// unicodeEscape reads the hex digits of \uXXXX at j (and the low half of
// a surrogate pair after it): the rune and the bytes read.
func (d *Decoder) unicodeEscape(j int) (rune, int, error) {
	hex := func(at int) (rune, bool) {
		if at+4 > len(d.data) {
			return 0, false
		}
		v, err := strconv.ParseUint(string(d.data[at:at+4]), 16, 16)
		return rune(v), err == nil
	}
	r, ok := hex(j)
	if !ok {
		return 0, 0, d.Errorf("invalid \\u escape in a string")
	}
	if !utf16.IsSurrogate(r) {
		return r, 4, nil
	}
	if j+6 <= len(d.data) && d.data[j+4] == '\\' && d.data[j+5] == 'u' {
		if lo, ok := hex(j + 6); ok {
			if dec := utf16.DecodeRune(r, lo); dec != utf8.RuneError {
				return dec, 10, nil
			}
		}
	}
	return 0, 0, d.Errorf("a lone UTF-16 surrogate \\u%04x in a string is not Unicode", r)
}
