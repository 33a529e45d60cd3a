package wire

import (
	"encoding/base64"
	"encoding/binary"
	"math"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"unicode/utf8"
)

// Writer appends JSON to a buffer: the service's answers are written by
// hand, as its requests are read, because encoding/json took 85 ms to
// write the advantages of 1,024 responses of 512 tokens and this 3–4
// times less. Numbers are written in Go's shortest form that parses back to
// the same float64, so clients get credo's advantages bit for bit. The
// caller writes the punctuation its methods do not (Raw, Byte).
type Writer struct {
	b    []byte
	raw8 []byte // packed floats' bytes before base64
}

// Bytes is the JSON written so far (the writer's own buffer).
func (w *Writer) Bytes() []byte { return w.b }

// Raw writes s as it is: punctuation, or JSON known to be valid.
func (w *Writer) Raw(s string) { w.b = append(w.b, s...) }

// Write makes a Writer an io.Writer, for fmt.Fprintf.
func (w *Writer) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	return len(p), nil
}

// Byte writes c as it is (a comma, a bracket).
func (w *Writer) Byte(c byte) { w.b = append(w.b, c) }

// Key writes "name": after a comma unless first.
func (w *Writer) Key(name string, first bool) {
	if !first {
		w.b = append(w.b, ',')
	}
	w.Str(name)
	w.b = append(w.b, ':')
}

// StrField writes "name":"value" (after a comma unless first).
func (w *Writer) StrField(name, value string, first bool) {
	w.Key(name, first)
	w.Str(value)
}

// IntField writes "name":n after a comma.
func (w *Writer) IntField(name string, n int) {
	w.Key(name, false)
	w.Int(n)
}

// Str writes s as a JSON string. Invalid UTF-8 becomes U+FFFD, as
// encoding/json does (but <, > and & are written as they are, not escaped
// as encoding/json escapes them by default).
func (w *Writer) Str(s string) {
	w.b = append(w.b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r != utf8.RuneError || size != 1 {
				i += size
				continue
			}
		}
		w.b = append(w.b, s[start:i]...)
		switch c {
		case '"', '\\':
			w.b = append(w.b, '\\', c)
		case '\n':
			w.b = append(w.b, '\\', 'n')
		case '\r':
			w.b = append(w.b, '\\', 'r')
		case '\t':
			w.b = append(w.b, '\\', 't')
		default:
			if c < 0x20 {
				w.b = append(w.b, '\\', 'u', '0', '0', "0123456789abcdef"[c>>4], "0123456789abcdef"[c&15])
			} else {
				w.b = append(w.b, "\ufffd"...)
			}
		}
		i++
		start = i
	}
	w.b = append(w.b, s[start:]...)
	w.b = append(w.b, '"')
}

// Float writes a finite x in the shortest form that parses back to it
// (callers only hold finite values; NaN and infinities, which JSON cannot
// hold, are written as null).
func (w *Writer) Float(x float64) {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		w.b = append(w.b, "null"...)
		return
	}
	w.b = strconv.AppendFloat(w.b, x, 'g', -1, 64)
}

// Int writes n in decimal.
func (w *Writer) Int(n int) { w.b = strconv.AppendInt(w.b, int64(n), 10) }

// Bool writes true or false.
func (w *Writer) Bool(v bool) { w.b = strconv.AppendBool(w.b, v) }

// list writes [one(x0),one(x1),…].
func list[T any](w *Writer, xs []T, one func(T)) {
	w.b = append(w.b, '[')
	for i, x := range xs {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		one(x)
	}
	w.b = append(w.b, ']')
}

// Strs writes xs as a JSON array of strings.
func (w *Writer) Strs(xs []string) { list(w, xs, w.Str) }

// Floats writes xs as a JSON array, or with packed as the base64 of their
// little-endian float64s (8 bytes a value: answers keep float64 where
// requests pack 4-byte values).
func (w *Writer) Floats(xs []float64, packed bool) {
	if packed {
		w.raw8 = slices.Grow(w.raw8[:0], 8*len(xs))[:8*len(xs)] // reused: a row at a time
		for i, x := range xs {
			binary.LittleEndian.PutUint64(w.raw8[8*i:], math.Float64bits(x))
		}
		w.b = append(w.b, '"')
		w.b = base64.StdEncoding.AppendEncode(w.b, w.raw8)
		w.b = append(w.b, '"')
		return
	}
	list(w, xs, w.Float)
}

// Rows writes [row, row, …], each as Floats writes it, and with nulls a
// nil row as null (a relevance row the method did not compute). Formatting numbers
// is most of an answer's cost (about 80 ns a float), so large answers are
// written on every core, in contiguous parts joined in order.
func (w *Writer) Rows(rows [][]float64, packed, nulls bool) {
	parts := min(runtime.GOMAXPROCS(0), len(rows))
	total := 0
	for _, r := range rows {
		total += len(r)
	}
	if total < 1<<14 || parts < 2 {
		parts = 1
	}
	out := make([]Writer, parts)
	var wg sync.WaitGroup
	for p := range parts {
		wg.Go(func() {
			lo, hi := p*len(rows)/parts, (p+1)*len(rows)/parts
			pw := &out[p]
			perFloat := 22 // JSON's longest float64, with its comma
			if packed {
				perFloat = 11 // 8 bytes in base64
			}
			pw.b = make([]byte, 0, perFloat*(hi-lo)*(total/max(1, len(rows))+1))
			for i := lo; i < hi; i++ {
				if i > 0 {
					pw.Byte(',')
				}
				if nulls && rows[i] == nil {
					pw.Raw("null")
					continue
				}
				pw.Floats(rows[i], packed)
			}
		})
	}
	wg.Wait()
	w.b = append(w.b, '[')
	for _, pw := range out {
		w.b = append(w.b, pw.b...)
	}
	w.b = append(w.b, ']')
}
