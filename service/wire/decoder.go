package wire

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Decoder reads one request body, a value at a time, in the order the
// caller's schema asks for them (Members, then a Str, Int32s, … for each
// key): no reflection, so large numeric arrays decode several times faster
// than with encoding/json, and every error is an *Error naming the field's
// path (responses[3].offsets[7]), as docs/SERVICE.md promises. It never
// panics on any input (FuzzDecoder, and service's FuzzDecode).
type Decoder struct {
	data    []byte
	i       int
	keys    map[string]string // the schema's keys, each mapped to itself
	path    []step
	scratch []int32 // packed offsets, decoded before they become pairs
	text    []byte  // a string with escapes, unescaped
}

// step is one element of a field path: a key, or an index when key is "".
type step struct {
	key   string
	index int
}

// maxDepth bounds the nesting of values read whole (Raw: records, config),
// so that a hostile body cannot recurse without end.
const maxDepth = 128

// NewDecoder reads data. keys, which may be nil, are the object keys the
// schema expects, each mapped to itself: such a key comes back as that
// string rather than a copy (a batch has some 50,000 of them).
func NewDecoder(data []byte, keys map[string]string) *Decoder {
	return &Decoder{data: data, keys: keys}
}

// Error is a body the decoder refused: the field at fault (its path, ""
// for the body as a whole) and what is wrong. TooLarge marks a count over
// a limit (an array's elements, a packed array's values), which an HTTP
// server answers with 413 where the rest are 400s.
type Error struct {
	Path     string
	Msg      string
	TooLarge bool
}

// Error is "path: message", or the message alone for the body.
func (e *Error) Error() string {
	if e.Path == "" {
		return e.Msg
	}
	return e.Path + ": " + e.Msg
}

// Path is the path of the value at the cursor, as errors name it: keys
// joined by dots, indices in brackets (responses[3].offsets[7]).
func (d *Decoder) Path() string {
	var b strings.Builder
	for _, s := range d.path {
		if s.key == "" {
			fmt.Fprintf(&b, "[%d]", s.index)
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s.key)
	}
	return b.String()
}

// Errorf is an *Error at the current path, for the schema's own checks
// (a value out of its set, a required key missing).
func (d *Decoder) Errorf(format string, args ...any) error {
	return &Error{Path: d.Path(), Msg: fmt.Sprintf(format, args...)}
}

// TooLargef is Errorf for a count over a limit (TooLarge set).
func (d *Decoder) TooLargef(format string, args ...any) error {
	return &Error{Path: d.Path(), Msg: fmt.Sprintf(format, args...), TooLarge: true}
}

func (d *Decoder) space() {
	for d.i < len(d.data) {
		switch d.data[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// Peek is the next byte after white space, 0 at the end: '"' before a
// string, '[' before an array, so that a field taking several shapes can
// choose how to read it.
func (d *Decoder) Peek() byte {
	d.space()
	if d.i >= len(d.data) {
		return 0
	}
	return d.data[d.i]
}

// NestedArray says whether the array at the cursor (after Peek is '[')
// starts with an array: [[…], …] rather than a flat one.
func (d *Decoder) NestedArray() bool {
	j := skipSpace(d.data, d.i+1)
	return j < len(d.data) && d.data[j] == '['
}

// describe names what the decoder sees next, for errors.
func (d *Decoder) describe() string {
	if d.Peek() == 0 && d.i >= len(d.data) {
		return "the end of the body"
	}
	return d.describeByte()
}

// describeByte names the value that the next byte starts.
func (d *Decoder) describeByte() string {
	switch c := d.Peek(); {
	case c == '{':
		return "an object"
	case c == '[':
		return "an array"
	case c == '"':
		return "a string"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == 'n':
		return "null"
	case c == '-' || (c >= '0' && c <= '9'):
		return "a number"
	default:
		return fmt.Sprintf("%q at byte %d", c, d.i)
	}
}

// End checks that only white space follows the body's value; the error is
// the body's (path "").
func (d *Decoder) End() error {
	d.space()
	if d.i < len(d.data) { // Peek's 0 would take a NUL byte for the end
		return &Error{Msg: fmt.Sprintf("unexpected %s after the JSON object", d.describeByte())}
	}
	return nil
}

// null consumes a null and reports whether there was one.
func (d *Decoder) null() bool {
	if d.Peek() == 'n' && d.literal("null") {
		return true
	}
	return false
}

func (d *Decoder) literal(w string) bool {
	if len(d.data)-d.i >= len(w) && string(d.data[d.i:d.i+len(w)]) == w {
		d.i += len(w)
		return true
	}
	return false
}

// Object reads an object, calling f for each member with the key on the
// path; f must consume the value. A key given twice is an error (JSON
// leaves it open; a request with two answers to one question is refused).
func (d *Decoder) Object(f func(key string) error) error {
	if d.Peek() != '{' {
		return d.Errorf("want an object, got %s", d.describe())
	}
	d.i++
	var few [16]string       // on the stack: most objects have a handful of keys
	seen := few[:0]          // the keys so far, while few
	var many map[string]bool // and then: an object of a million keys costs no more than linear time
	for first := true; ; first = false {
		c := d.Peek()
		if c == '}' {
			d.i++
			return nil
		}
		if !first {
			if c != ',' {
				return d.Errorf("want , or } after an object member, got %s", d.describe())
			}
			d.i++
			c = d.Peek()
		}
		if c != '"' {
			return d.Errorf("want an object key (a string), got %s", d.describe())
		}
		key, err := d.key()
		if err != nil {
			return err
		}
		if slices.Contains(seen, key) || many[key] {
			return d.Errorf("key %q given twice", key)
		}
		if many != nil {
			many[key] = true
		} else if seen = append(seen, key); len(seen) > 16 {
			many = map[string]bool{}
			for _, k := range seen {
				many[k] = true
			}
		}
		if d.Peek() != ':' {
			return d.Errorf("want : after key %q, got %s", key, d.describe())
		}
		d.i++
		d.path = append(d.path, step{key: key})
		if err := f(key); err != nil {
			return err
		}
		d.path = d.path[:len(d.path)-1]
	}
}

// Members is Object for the format's objects, where a null value is the
// same as an absent key (clients that write every field): f is not called
// for it.
func (d *Decoder) Members(f func(key string) error) error {
	return d.Object(func(key string) error {
		if d.null() {
			return nil
		}
		return f(key)
	})
}

// Array reads an array, calling f for each element with its index on the
// path; f must consume the element. More than limit elements is a
// TooLarge error, found before the element is read.
func (d *Decoder) Array(limit int, f func(i int) error) error {
	if d.Peek() != '[' {
		return d.Errorf("want an array, got %s", d.describe())
	}
	d.i++
	for i := 0; ; i++ {
		c := d.Peek()
		if c == ']' {
			d.i++
			return nil
		}
		if i > 0 {
			if c != ',' {
				return d.Errorf("want , or ] after an array element, got %s", d.describe())
			}
			d.i++
		}
		if i >= limit {
			return d.TooLargef("more than %d elements", limit)
		}
		d.path = append(d.path, step{index: i})
		if err := f(i); err != nil {
			return err
		}
		d.path = d.path[:len(d.path)-1]
	}
}

// Unknown is the error for a key the schema does not have, at its path,
// listing the keys it has there (known).
func (d *Decoder) Unknown(key string, known string) error {
	return d.Errorf("unknown field %q (known here: %s)", key, known)
}

// Raw returns the bytes of the next value, whatever it is, checked to be
// JSON (nested at most 128 deep): a value passed on whole, as a record or
// a config is.
func (d *Decoder) Raw() ([]byte, error) {
	d.space()
	start := d.i
	if err := d.skip(0); err != nil {
		return nil, err
	}
	return d.data[start:d.i], nil
}

func (d *Decoder) skip(depth int) error {
	if depth > maxDepth {
		return d.Errorf("nested more than %d deep", maxDepth)
	}
	switch c := d.Peek(); {
	case c == '{':
		return d.Object(func(string) error { return d.skip(depth + 1) })
	case c == '[':
		return d.Array(math.MaxInt, func(int) error { return d.skip(depth + 1) })
	case c == '"':
		return d.Discard()
	case c == 't' || c == 'f':
		_, err := d.Bool()
		return err
	case c == 'n' && d.null():
		return nil
	default:
		_, _, err := d.number()
		return err
	}
}
