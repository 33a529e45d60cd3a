package service

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// decoder reads one request body. It is written for the service's schema
// rather than by reflection: it decodes large numeric arrays several times
// faster than encoding/json, and every error names the field's path
// (responses[3].offsets[7]) as docs/SERVICE.md promises. It never panics on
// any input (FuzzDecode).
type decoder struct {
	data    []byte
	i       int
	path    []step
	scratch []int32 // packed offsets, decoded before they become pairs
	text    []byte  // a string with escapes, unescaped
}

// step is one element of a field path: a key, or an index when key is "".
type step struct {
	key   string
	index int
}

// maxDepth bounds the nesting of values read whole (records, config).
const maxDepth = 128

// at returns the current path: responses[3].offsets[7].
func (d *decoder) at() string {
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

// errorf is a 400 at the current path.
func (d *decoder) errorf(format string, args ...any) error {
	return badRequest(d.at(), fmt.Sprintf(format, args...))
}

// tooLarge is a 413 at the current path.
func (d *decoder) tooLarge(format string, args ...any) error {
	return &apiError{status: 413, kind: kindTooLarge, path: d.at(), msg: fmt.Sprintf(format, args...)}
}

func (d *decoder) space() {
	for d.i < len(d.data) {
		switch d.data[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// peek is the next byte after white space, 0 at the end.
func (d *decoder) peek() byte {
	d.space()
	if d.i >= len(d.data) {
		return 0
	}
	return d.data[d.i]
}

// describe names what the decoder sees next, for errors.
func (d *decoder) describe() string {
	switch c := d.peek(); {
	case c == 0:
		return "the end of the body"
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

// end checks that only white space follows the body's value.
func (d *decoder) end() error {
	if d.peek() != 0 {
		return badRequest("", fmt.Sprintf("unexpected %s after the JSON object", d.describe()))
	}
	return nil
}

// null consumes a null and reports whether there was one.
func (d *decoder) null() bool {
	if d.peek() == 'n' && d.literal("null") {
		return true
	}
	return false
}

func (d *decoder) literal(w string) bool {
	if len(d.data)-d.i >= len(w) && string(d.data[d.i:d.i+len(w)]) == w {
		d.i += len(w)
		return true
	}
	return false
}

// object reads an object, calling f for each member with the key on the
// path; f must consume the value. A key given twice is an error.
func (d *decoder) object(f func(key string) error) error {
	if d.peek() != '{' {
		return d.errorf("want an object, got %s", d.describe())
	}
	d.i++
	var few [16]string       // on the stack: most objects have a handful of keys
	seen := few[:0]          // the keys so far, while few
	var many map[string]bool // and then: an object of a million keys costs no more than linear time
	for first := true; ; first = false {
		c := d.peek()
		if c == '}' {
			d.i++
			return nil
		}
		if !first {
			if c != ',' {
				return d.errorf("want , or } after an object member, got %s", d.describe())
			}
			d.i++
			c = d.peek()
		}
		if c != '"' {
			return d.errorf("want an object key (a string), got %s", d.describe())
		}
		key, err := d.key()
		if err != nil {
			return err
		}
		if slices.Contains(seen, key) || many[key] {
			return d.errorf("key %q given twice", key)
		}
		if many != nil {
			many[key] = true
		} else if seen = append(seen, key); len(seen) > 16 {
			many = map[string]bool{}
			for _, k := range seen {
				many[k] = true
			}
		}
		if d.peek() != ':' {
			return d.errorf("want : after key %q, got %s", key, d.describe())
		}
		d.i++
		d.path = append(d.path, step{key: key})
		if err := f(key); err != nil {
			return err
		}
		d.path = d.path[:len(d.path)-1]
	}
}

// members is object for the schema's objects, where a null value is the
// same as an absent key: f is not called for it.
func (d *decoder) members(f func(key string) error) error {
	return d.object(func(key string) error {
		if d.null() {
			return nil
		}
		return f(key)
	})
}

// array reads an array, calling f for each element with its index on the
// path; f must consume the element. More than limit elements is a 413.
func (d *decoder) array(limit int, f func(i int) error) error {
	if d.peek() != '[' {
		return d.errorf("want an array, got %s", d.describe())
	}
	d.i++
	for i := 0; ; i++ {
		c := d.peek()
		if c == ']' {
			d.i++
			return nil
		}
		if i > 0 {
			if c != ',' {
				return d.errorf("want , or ] after an array element, got %s", d.describe())
			}
			d.i++
		}
		if i >= limit {
			return d.tooLarge("more than %d elements", limit)
		}
		d.path = append(d.path, step{index: i})
		if err := f(i); err != nil {
			return err
		}
		d.path = d.path[:len(d.path)-1]
	}
}

// unknown is the error for a key the schema does not have, at its path.
func (d *decoder) unknown(key string, known string) error {
	return d.errorf("unknown field %q (known here: %s)", key, known)
}

// str reads a string, which must be valid Unicode.
func (d *decoder) str() (string, error) {
	b, err := d.strBytes()
	return string(b), err
}

// key reads an object key: str, but the schema's keys come back as
// constants rather than a copy (a batch has some 50,000 of them).
func (d *decoder) key() (string, error) {
	b, err := d.strBytes()
	if err != nil {
		return "", err
	}
	if k, ok := schemaKeys[string(b)]; ok { // the conversion allocates nothing
		return k, nil
	}
	return string(b), nil
}

// schemaKeys are the keys of the requests' objects, each mapped to itself.
var schemaKeys = func() map[string]string {
	m := map[string]string{}
	for _, k := range strings.Fields(`method config rewards weights step seed encoding return_relevance
		responses replay influence group prompt response tokens offsets scores verdicts score info
		reason error skip spans start end strength effect plan answers k ids logprobs token steps logit
		task difficulty split format items prompt_id record count`) {
		m[k] = k
	}
	return m
}()

// discard reads a string that is not kept (a verdict's reason), checked
// as str checks it, without copying it.
func (d *decoder) discard() error {
	_, err := d.strBytes()
	return err
}

// strBytes is str's bytes: the body's own, or for a string with escapes
// d.text's, valid until the next call.
func (d *decoder) strBytes() ([]byte, error) {
	if d.peek() != '"' {
		return nil, d.errorf("want a string, got %s", d.describe())
	}
	start := d.i + 1
	for j := start; j < len(d.data); j++ {
		switch c := d.data[j]; {
		case c == '"':
			s := d.data[start:j]
			if !utf8.Valid(s) {
				return nil, d.errorf("the string is not valid UTF-8")
			}
			d.i = j + 1
			return s, nil
		case c == '\\':
			return d.escaped(start)
		case c < 0x20:
			return nil, d.errorf("control character %#x in a string (escape it)", c)
		}
	}
	return nil, d.errorf("unterminated string")
}

// escaped reads a string holding escapes, from its first byte at start,
// copying the runs between escapes whole into d.text (reused: the
// response texts of a batch are megabytes).
func (d *decoder) escaped(start int) ([]byte, error) {
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
				return nil, d.errorf("the string is not valid UTF-8")
			}
			d.i = j + 1
			return b, nil
		case c < 0x20:
			return nil, d.errorf("control character %#x in a string (escape it)", c)
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
			return nil, d.errorf("invalid escape \\%c in a string", e)
		}
	}
	return nil, d.errorf("unterminated string")
}

// unicodeEscape reads the hex digits of \uXXXX at j (and the low half of
// a surrogate pair after it): the rune and the bytes read.
func (d *decoder) unicodeEscape(j int) (rune, int, error) {
	hex := func(at int) (rune, bool) {
		if at+4 > len(d.data) {
			return 0, false
		}
		v, err := strconv.ParseUint(string(d.data[at:at+4]), 16, 16)
		return rune(v), err == nil
	}
	r, ok := hex(j)
	if !ok {
		return 0, 0, d.errorf("invalid \\u escape in a string")
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
	return 0, 0, d.errorf("a lone UTF-16 surrogate \\u%04x in a string is not Unicode", r)
}

// number returns the bytes of the JSON number at the cursor, checked
// against JSON's grammar, and whether it is an integer (no fraction or
// exponent).
func (d *decoder) number() ([]byte, bool, error) {
	d.space()
	start, j := d.i, d.i
	digits := func() int {
		n := 0
		for j < len(d.data) && d.data[j] >= '0' && d.data[j] <= '9' {
			j++
			n++
		}
		return n
	}
	if j < len(d.data) && d.data[j] == '-' {
		j++
	}
	if j < len(d.data) && d.data[j] == '0' {
		j++
	} else if digits() == 0 {
		return nil, false, d.errorf("want a number, got %s", d.describe())
	}
	integer := true
	if j < len(d.data) && d.data[j] == '.' {
		j++
		integer = false
		if digits() == 0 {
			return nil, false, d.errorf("malformed number (no digit after the point)")
		}
	}
	if j < len(d.data) && (d.data[j] == 'e' || d.data[j] == 'E') {
		j++
		integer = false
		if j < len(d.data) && (d.data[j] == '+' || d.data[j] == '-') {
			j++
		}
		if digits() == 0 {
			return nil, false, d.errorf("malformed number (no digit in the exponent)")
		}
	}
	d.i = j
	return d.data[start:j], integer, nil
}

// float reads a finite number.
func (d *decoder) float() (float64, error) { return d.floatBits(64) }

// floatBits reads a finite number rounded to a float of that many bits
// (32: parsed as float32 directly, so a float32 written in its shortest
// form comes back exactly).
func (d *decoder) floatBits(bits int) (float64, error) {
	b, _, err := d.number()
	if err != nil {
		return 0, err
	}
	x, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(b), len(b)), bits)
	if err != nil || math.IsInf(x, 0) {
		return 0, d.errorf("%s is not a finite float%d", b, bits)
	}
	return x, nil
}

// integer reads an integer in [lo, hi].
func (d *decoder) integer(lo, hi int64) (int64, error) {
	b, isInt, err := d.number()
	if err != nil {
		return 0, err
	}
	if !isInt {
		return 0, d.errorf("want an integer, got %s", b)
	}
	n, err := strconv.ParseInt(unsafe.String(unsafe.SliceData(b), len(b)), 10, 64)
	if err != nil || n < lo || n > hi {
		return 0, d.errorf("%s is outside [%d, %d]", b, lo, hi)
	}
	return n, nil
}

// uint reads an integer in [0, 2^64).
func (d *decoder) uint() (uint64, error) {
	b, isInt, err := d.number()
	if err != nil {
		return 0, err
	}
	n, perr := strconv.ParseUint(unsafe.String(unsafe.SliceData(b), len(b)), 10, 64)
	if !isInt || perr != nil {
		return 0, d.errorf("want an integer in [0, 2^64), got %s", b)
	}
	return n, nil
}

func (d *decoder) boolean() (bool, error) {
	switch {
	case d.peek() == 't' && d.literal("true"):
		return true, nil
	case d.peek() == 'f' && d.literal("false"):
		return false, nil
	}
	return false, d.errorf("want true or false, got %s", d.describe())
}

// raw returns the bytes of the next value, whatever it is, checked to be
// JSON (nested at most maxDepth deep).
func (d *decoder) raw() ([]byte, error) {
	d.space()
	start := d.i
	if err := d.skip(0); err != nil {
		return nil, err
	}
	return d.data[start:d.i], nil
}

func (d *decoder) skip(depth int) error {
	if depth > maxDepth {
		return d.errorf("nested more than %d deep", maxDepth)
	}
	switch c := d.peek(); {
	case c == '{':
		return d.object(func(string) error { return d.skip(depth + 1) })
	case c == '[':
		return d.array(math.MaxInt, func(int) error { return d.skip(depth + 1) })
	case c == '"':
		return d.discard()
	case c == 't' || c == 'f':
		_, err := d.boolean()
		return err
	case c == 'n' && d.null():
		return nil
	default:
		_, _, err := d.number()
		return err
	}
}

// strings reads a list of strings.
func (d *decoder) strings(limit int) ([]string, error) {
	var out []string
	err := d.array(limit, func(int) error {
		s, err := d.str()
		out = append(out, s)
		return err
	})
	return out, err
}

// floats reads a list of finite numbers.
func (d *decoder) floats(limit int) ([]float64, error) {
	out := []float64{}
	err := d.array(limit, func(int) error {
		x, err := d.float()
		out = append(out, x)
		return err
	})
	return out, err
}

// littleEndian says whether this machine stores numbers as the packed
// arrays do, so base64 can be decoded straight into them.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// packedSource reads the base64 string at the cursor (of at most limit
// 4-byte values) and returns its text, to be decoded by unpack.
func (d *decoder) packedSource(limit int) ([]byte, error) {
	d.space()
	start := d.i + 1
	n := bytes.IndexByte(d.data[start:], '"')
	if n < 0 {
		return nil, d.errorf("unterminated string")
	}
	src, end := d.data[start:start+n], start+n
	if bytes.IndexByte(src, '\\') >= 0 { // an encoder that escapes "/": read the string properly
		s, err := d.str()
		if err != nil {
			return nil, err
		}
		src, end = []byte(s), d.i-1
	}
	if base64.StdEncoding.DecodedLen(len(src)) > 4*limit+3 {
		return nil, d.tooLarge("more than %d values", limit)
	}
	d.i = end + 1
	return src, nil
}

// unpack decodes standard base64 holding little-endian 4-byte values
// (int32 or float32): straight into the values' memory on a little-endian
// machine, with no copy. The error is a message for the field's path.
func unpack[T int32 | float32](src []byte) ([]T, string) {
	return unpackInto(make([]T, base64.StdEncoding.DecodedLen(len(src))/4+1), src)
}

// unpackInto is unpack into out, which holds at least DecodedLen/4 + 1 values.
func unpackInto[T int32 | float32](out []T, src []byte) ([]T, string) {
	raw := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(out))), 4*len(out))
	m, err := base64.StdEncoding.Decode(raw, src)
	if err != nil {
		return nil, fmt.Sprintf("not standard base64 (RFC 4648 with = padding): %v", err)
	}
	if m%4 != 0 {
		return nil, fmt.Sprintf("%d bytes of base64 are not whole 4-byte values", m)
	}
	out = out[:m/4]
	if !littleEndian {
		for j := range out {
			v := binary.LittleEndian.Uint32(raw[4*j:])
			out[j] = *(*T)(unsafe.Pointer(&v))
		}
	}
	return out, ""
}

// packed reads and decodes a base64 string of 4-byte values.
func packed[T int32 | float32](d *decoder, limit int) ([]T, error) {
	src, err := d.packedSource(limit)
	if err != nil {
		return nil, err
	}
	out, msg := unpack[T](src)
	if msg != "" {
		return nil, d.errorf("%s", msg)
	}
	return out, nil
}

// checkAtLeast checks packed int32s against a lower bound.
func checkAtLeast(xs []int32, lo int32) string {
	for j, x := range xs {
		if x < lo {
			return fmt.Sprintf("value %d is %d, below %d", j, x, lo)
		}
	}
	return ""
}

// int32s reads a packed int32 array: a JSON array of integers, or base64 of
// little-endian int32s. Each value must be at least lo.
func (d *decoder) int32s(lo int32, limit int) ([]int32, error) {
	if d.peek() == '"' {
		out, err := packed[int32](d, limit)
		if err != nil {
			return nil, err
		}
		if msg := checkAtLeast(out, lo); msg != "" {
			return nil, d.errorf("%s", msg)
		}
		return out, nil
	}
	var out []int32
	err := d.array(limit, func(int) error {
		n, err := d.fastInt(int64(lo), math.MaxInt32)
		out = append(out, int32(n))
		return err
	})
	return out, err
}

// fastInt is integer for the common case of plain digits, without a call
// into strconv.
func (d *decoder) fastInt(lo, hi int64) (int64, error) {
	d.space()
	j, neg := d.i, false
	if j < len(d.data) && d.data[j] == '-' {
		neg = true
		j++
	}
	var n int64
	k := j
	for k < len(d.data) && k-j < 18 && d.data[k] >= '0' && d.data[k] <= '9' {
		n = n*10 + int64(d.data[k]-'0')
		k++
	}
	if k == j || (d.data[j] == '0' && k-j > 1) || (k < len(d.data) && (d.data[k] == '.' || d.data[k] == 'e' || d.data[k] == 'E' || (d.data[k] >= '0' && d.data[k] <= '9'))) {
		return d.integer(lo, hi) // anything unusual: the general path says what is wrong
	}
	if neg {
		n = -n
	}
	if n < lo || n > hi {
		return d.integer(lo, hi)
	}
	d.i = k
	return n, nil
}

// float32s reads a packed float32 array: a JSON array of numbers or base64
// of little-endian float32s (whose values the caller checks).
func (d *decoder) float32s(limit int) ([]float32, error) {
	if d.peek() == '"' {
		return packed[float32](d, limit)
	}
	out := []float32{}
	err := d.array(limit, func(int) error {
		x, err := d.floatBits(32)
		out = append(out, float32(x))
		return err
	})
	return out, err
}

// offsets reads a packed [T][2] int32 array: [[s, e], …], or base64 of
// s0, e0, s1, e1, … as little-endian int32s.
func (d *decoder) offsets(limit int) ([][2]int, error) {
	if d.peek() == '"' {
		src, err := d.packedSource(2 * limit)
		if err != nil {
			return nil, err
		}
		// Into a scratch buffer reused across responses: only the pairs are kept.
		n := base64.StdEncoding.DecodedLen(len(src))/4 + 1
		if cap(d.scratch) < n {
			d.scratch = make([]int32, n)
		}
		flat, msg := unpackInto(d.scratch[:n], src)
		if msg != "" {
			return nil, d.errorf("%s", msg)
		}
		if len(flat)%2 != 0 {
			return nil, d.errorf("%d values are not whole [start, end] pairs", len(flat))
		}
		out := make([][2]int, len(flat)/2)
		for t := range out {
			out[t] = [2]int{int(flat[2*t]), int(flat[2*t+1])}
		}
		return out, nil
	}
	var out [][2]int
	err := d.array(limit, func(int) error {
		var r [2]int
		n := 0
		err := d.array(math.MaxInt, func(j int) error {
			if j >= 2 {
				return d.errorf("want a [start, end] pair, got more values")
			}
			x, err := d.fastInt(math.MinInt32, math.MaxInt32)
			r[j], n = int(x), j+1
			return err
		})
		if err == nil && n != 2 {
			err = d.errorf("want a [start, end] pair, got %d values", n)
		}
		out = append(out, r)
		return err
	})
	return out, err
}
