package service

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

// writer appends JSON to a buffer: the service's answers are written by
// hand, as its requests are read, because encoding/json took 85 ms to
// write the advantages of 1,024 responses of 512 tokens and this 3–4
// times less. Numbers are written in Go's shortest form that parses back to
// the same float64, so clients get credo's advantages bit for bit.
type writer struct {
	b    []byte
	raw8 []byte // packed floats' bytes before base64
}

func (w *writer) raw(s string) { w.b = append(w.b, s...) }

// Write makes a writer an io.Writer, for fmt.Fprintf.
func (w *writer) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	return len(p), nil
}

func (w *writer) byte(c byte) { w.b = append(w.b, c) }

// key writes "name": after a comma unless first.
func (w *writer) key(name string, first bool) {
	if !first {
		w.b = append(w.b, ',')
	}
	w.str(name)
	w.b = append(w.b, ':')
}

// strField writes "name":"value" (after a comma unless first).
func (w *writer) strField(name, value string, first bool) {
	w.key(name, first)
	w.str(value)
}

// intField writes "name":n after a comma.
func (w *writer) intField(name string, n int) {
	w.key(name, false)
	w.int(n)
}

// str writes s as a JSON string. Invalid UTF-8 becomes U+FFFD, as
// encoding/json does.
func (w *writer) str(s string) {
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

// float writes a finite x (callers only hold finite values; NaN and
// infinities, which JSON cannot hold, are written as null).
func (w *writer) float(x float64) {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		w.b = append(w.b, "null"...)
		return
	}
	w.b = strconv.AppendFloat(w.b, x, 'g', -1, 64)
}

func (w *writer) int(n int) { w.b = strconv.AppendInt(w.b, int64(n), 10) }

func (w *writer) bool(v bool) { w.b = strconv.AppendBool(w.b, v) }

// list writes [one(x0),one(x1),…].
func list[T any](w *writer, xs []T, one func(T)) {
	w.b = append(w.b, '[')
	for i, x := range xs {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		one(x)
	}
	w.b = append(w.b, ']')
}

func (w *writer) strs(xs []string) { list(w, xs, w.str) }

// floats writes xs as a JSON array, or with packed as the base64 of their
// little-endian float64s.
func (w *writer) floats(xs []float64, packed bool) {
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
	list(w, xs, w.float)
}

// rows writes [row, row, …], each as floats writes it, and with nulls a
// nil row as null (a relevance row the method did not compute). Formatting numbers
// is most of an answer's cost (about 80 ns a float), so large answers are
// written on every core, in contiguous parts joined in order.
func (w *writer) rows(rows [][]float64, packed, nulls bool) {
	parts := min(runtime.GOMAXPROCS(0), len(rows))
	total := 0
	for _, r := range rows {
		total += len(r)
	}
	if total < 1<<14 || parts < 2 {
		parts = 1
	}
	out := make([]writer, parts)
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
					pw.byte(',')
				}
				if nulls && rows[i] == nil {
					pw.raw("null")
					continue
				}
				pw.floats(rows[i], packed)
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
