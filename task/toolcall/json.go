package toolcall

import (
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Kind is the kind of a JSON value.
type Kind uint8

// The JSON kinds. The zero Kind marks a Value that holds nothing.
const (
	Null Kind = iota + 1
	Bool
	Number
	String
	Array
	Object
)

var kindNames = [...]string{"invalid", "null", "boolean", "number", "string", "array", "object"}

// String names the kind as JSON Schema does (object, array, …).
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "invalid"
}

// Value is a parsed JSON value that remembers where it was written.
type Value struct {
	Kind       Kind
	Start, End int      // byte range in the parsed text; 0, 0 for built values
	Bool       bool     // for Bool
	Num        string   // the literal as written, for Number
	Str        string   // the decoded text, for String
	Elems      []Value  // for Array
	Members    []Member // for Object, in written order, duplicates kept
}

// Member is one key and value of a JSON object.
type Member struct {
	Key              string
	KeyStart, KeyEnd int // byte range of the key, quotes included
	Value            Value
}

// Get returns the value of key in an object. Like Python's json module, the
// last of duplicate keys wins.
func (v Value) Get(key string) (Value, bool) {
	for i := len(v.Members) - 1; i >= 0; i-- {
		if v.Members[i].Key == key {
			return v.Members[i].Value, true
		}
	}
	return Value{}, false
}

// IsInt says whether a number was written without a fraction or exponent,
// which is how Python's json module tells an int from a float.
func (v Value) IsInt() bool {
	return v.Kind == Number && !strings.ContainsAny(v.Num, ".eE")
}

// MaxDepth bounds the nesting of arrays and objects, so hostile input
// cannot exhaust the stack.
const MaxDepth = 64

// maxNumberLen mirrors Python's limit on the digits of an int it converts
// from text (sys.int_info.default_max_str_digits), and keeps big-number
// comparisons cheap.
const maxNumberLen = 4300

// SyntaxError is a JSON syntax error at a byte offset of the text.
type SyntaxError struct {
	Msg    string
	Offset int
}

// Error gives the message and the byte offset.
func (e *SyntaxError) Error() string { return fmt.Sprintf("%s at byte %d", e.Msg, e.Offset) }

// ParseJSON parses one JSON value, optionally surrounded by whitespace.
// Invalid UTF-8 inside strings is replaced by U+FFFD, as encoding/json does.
// Errors are *SyntaxError.
func ParseJSON(s string) (Value, error) { return parseJSON(s, 0) }

// parseJSON parses s, giving offsets as if s began at byte base of a larger
// text (the response it was cut from).
func parseJSON(s string, base int) (Value, error) {
	p := scanner{s: s, base: base}
	p.skipSpace()
	v, err := p.value(0)
	if err != nil {
		return Value{}, err
	}
	p.skipSpace()
	if p.i < len(s) {
		return Value{}, p.fail("unexpected text after the JSON value")
	}
	return v, nil
}

type scanner struct {
	s    string
	i    int
	base int
}

func (p *scanner) fail(msg string) error { return &SyntaxError{Msg: msg, Offset: p.base + p.i} }

func (p *scanner) skipSpace() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *scanner) value(depth int) (Value, error) {
	if p.i >= len(p.s) {
		return Value{}, p.fail("unexpected end of JSON")
	}
	start := p.i
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		str, err := p.str()
		if err != nil {
			return Value{}, err
		}
		return Value{Kind: String, Str: str, Start: p.base + start, End: p.base + p.i}, nil
	case c == '-' || ('0' <= c && c <= '9'):
		return p.number()
	case strings.HasPrefix(p.s[p.i:], "true"):
		p.i += 4
		return Value{Kind: Bool, Bool: true, Start: p.base + start, End: p.base + p.i}, nil
	case strings.HasPrefix(p.s[p.i:], "false"):
		p.i += 5
		return Value{Kind: Bool, Start: p.base + start, End: p.base + p.i}, nil
	case strings.HasPrefix(p.s[p.i:], "null"):
		p.i += 4
		return Value{Kind: Null, Start: p.base + start, End: p.base + p.i}, nil
	default:
		return Value{}, p.fail(fmt.Sprintf("unexpected character %q", rune(c)))
	}
}

func (p *scanner) object(depth int) (Value, error) {
	if depth >= MaxDepth {
		return Value{}, p.fail("JSON nested too deeply")
	}
	v := Value{Kind: Object, Start: p.base + p.i}
	p.i++ // {
	p.skipSpace()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		v.End = p.base + p.i
		return v, nil
	}
	for {
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			if p.i >= len(p.s) {
				return Value{}, p.fail("unexpected end of JSON in an object")
			}
			return Value{}, p.fail("expected a quoted key")
		}
		keyStart := p.i
		key, err := p.str()
		if err != nil {
			return Value{}, err
		}
		m := Member{Key: key, KeyStart: p.base + keyStart, KeyEnd: p.base + p.i}
		p.skipSpace()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return Value{}, p.fail("expected ':' after a key")
		}
		p.i++
		p.skipSpace()
		if m.Value, err = p.value(depth + 1); err != nil {
			return Value{}, err
		}
		v.Members = append(v.Members, m)
		p.skipSpace()
		if p.i >= len(p.s) {
			return Value{}, p.fail("unexpected end of JSON in an object")
		}
		switch p.s[p.i] {
		case ',':
			p.i++
			p.skipSpace()
		case '}':
			p.i++
			v.End = p.base + p.i
			return v, nil
		default:
			return Value{}, p.fail("expected ',' or '}' in an object")
		}
	}
}

func (p *scanner) array(depth int) (Value, error) {
	if depth >= MaxDepth {
		return Value{}, p.fail("JSON nested too deeply")
	}
	v := Value{Kind: Array, Start: p.base + p.i}
	p.i++ // [
	p.skipSpace()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		v.End = p.base + p.i
		return v, nil
	}
	for {
		e, err := p.value(depth + 1)
		if err != nil {
			return Value{}, err
		}
		v.Elems = append(v.Elems, e)
		p.skipSpace()
		if p.i >= len(p.s) {
			return Value{}, p.fail("unexpected end of JSON in an array")
		}
		switch p.s[p.i] {
		case ',':
			p.i++
			p.skipSpace()
		case ']':
			p.i++
			v.End = p.base + p.i
			return v, nil
		default:
			return Value{}, p.fail("expected ',' or ']' in an array")
		}
	}
}

// number scans -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?.
func (p *scanner) number() (Value, error) {
	start := p.i
	if p.s[p.i] == '-' {
		p.i++
	}
	switch {
	case p.i < len(p.s) && p.s[p.i] == '0':
		p.i++
	case p.i < len(p.s) && '1' <= p.s[p.i] && p.s[p.i] <= '9':
		p.digits()
	default:
		return Value{}, p.fail("expected a digit")
	}
	if p.i < len(p.s) && p.s[p.i] == '.' {
		p.i++
		if p.digits() == 0 {
			return Value{}, p.fail("expected a digit after '.'")
		}
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		p.i++
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if p.digits() == 0 {
			return Value{}, p.fail("expected a digit in an exponent")
		}
	}
	if p.i-start > maxNumberLen {
		p.i = start
		return Value{}, p.fail("number too long")
	}
	return Value{Kind: Number, Num: p.s[start:p.i], Start: p.base + start, End: p.base + p.i}, nil
}

func (p *scanner) digits() int {
	n := 0
	for p.i < len(p.s) && '0' <= p.s[p.i] && p.s[p.i] <= '9' {
		p.i++
		n++
	}
	return n
}

// str scans a quoted string at p.i and returns its decoded text.
func (p *scanner) str() (string, error) {
	p.i++ // opening quote
	start := p.i
	// Fast path: plain ASCII with no escapes is its own decoding.
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c == '"' {
			p.i++
			return p.s[start : p.i-1], nil
		}
		if c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			break
		}
		p.i++
	}
	b := []byte(p.s[start:p.i])
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return string(b), nil
		case c < 0x20:
			return "", p.fail("control character in a string")
		case c == '\\':
			var err error
			if b, err = p.escape(b); err != nil {
				return "", err
			}
		case c < utf8.RuneSelf:
			b = append(b, c)
			p.i++
		default:
			r, size := utf8.DecodeRuneInString(p.s[p.i:])
			b = utf8.AppendRune(b, r) // RuneError for invalid bytes
			p.i += size
		}
	}
	return "", p.fail("unterminated string")
}

// escape decodes the escape sequence at p.i (a backslash) onto b.
func (p *scanner) escape(b []byte) ([]byte, error) {
	if p.i+1 >= len(p.s) {
		p.i++
		return nil, p.fail("unterminated string")
	}
	c := p.s[p.i+1]
	if d, ok := simpleEscape(c); ok {
		p.i += 2
		return append(b, d), nil
	}
	if c != 'u' {
		p.i++
		return nil, p.fail(fmt.Sprintf("invalid escape \\%c", rune(c)))
	}
	r, ok := hex4(p.s, p.i+2)
	if !ok {
		p.i += 2
		return nil, p.fail("invalid \\u escape")
	}
	p.i += 6
	if utf16.IsSurrogate(r) {
		// A pair is two escapes; a lone surrogate becomes U+FFFD, as in encoding/json.
		if r2, ok := hex4(p.s, p.i+2); ok && strings.HasPrefix(p.s[p.i:], `\u`) {
			if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
				p.i += 6
				return utf8.AppendRune(b, dec), nil
			}
		}
		r = utf8.RuneError
	}
	return utf8.AppendRune(b, r), nil
}

func simpleEscape(c byte) (byte, bool) {
	switch c {
	case '"', '\\', '/':
		return c, true
	case 'b':
		return '\b', true
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	}
	return 0, false
}

func hex4(s string, i int) (rune, bool) {
	if i+4 > len(s) {
		return 0, false
	}
	var r rune
	for _, c := range []byte(s[i : i+4]) {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}
