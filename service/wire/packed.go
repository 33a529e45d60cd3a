package wire

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math"
	"unsafe"
)

// The format's packed arrays are a JSON array of numbers or, with
// "encoding": "base64" on the client's side, one string: standard base64
// (RFC 4648, = padded) of the values as little-endian 4-byte int32s or
// float32s, a quarter of the bytes of JSON and decoded with no parsing.

// littleEndian says whether this machine stores numbers as the packed
// arrays do, so base64 can be decoded straight into them.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// PackedSource reads the base64 string at the cursor (of at most limit
// 4-byte values, else a TooLarge error) and returns its text undecoded,
// for Unpack later (on several cores: a top-20 replay of a large batch is
// a hundred megabytes of base64). The text is the body's own bytes.
func (d *Decoder) PackedSource(limit int) ([]byte, error) {
	d.space()
	start := d.i + 1
	n := bytes.IndexByte(d.data[start:], '"')
	if n < 0 {
		return nil, d.Errorf("unterminated string")
	}
	src, end := d.data[start:start+n], start+n
	if bytes.IndexByte(src, '\\') >= 0 { // an encoder that escapes "/": read the string properly
		s, err := d.Str()
		if err != nil {
			return nil, err
		}
		src, end = []byte(s), d.i-1
	}
	if base64.StdEncoding.DecodedLen(len(src)) > 4*limit+3 {
		return nil, d.TooLargef("more than %d values", limit)
	}
	d.i = end + 1
	return src, nil
}

// Unpack decodes standard base64 holding little-endian 4-byte values
// (int32 or float32): straight into the values' memory on a little-endian
// machine, with no copy. The error, which has no path, is the message for
// the field's.
func Unpack[T int32 | float32](src []byte) ([]T, error) {
	return unpackInto(make([]T, base64.StdEncoding.DecodedLen(len(src))/4+1), src)
}

// unpackInto is Unpack into out, which holds at least DecodedLen/4 + 1 values.
func unpackInto[T int32 | float32](out []T, src []byte) ([]T, error) {
	raw := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(out))), 4*len(out))
	m, err := base64.StdEncoding.Decode(raw, src)
	if err != nil {
		return nil, fmt.Errorf("not standard base64 (RFC 4648 with = padding): %v", err)
	}
	if m%4 != 0 {
		return nil, fmt.Errorf("%d bytes of base64 are not whole 4-byte values", m)
	}
	out = out[:m/4]
	if !littleEndian {
		for j := range out {
			v := binary.LittleEndian.Uint32(raw[4*j:])
			out[j] = *(*T)(unsafe.Pointer(&v))
		}
	}
	return out, nil
}

// packed reads and decodes a base64 string of 4-byte values.
func packed[T int32 | float32](d *Decoder, limit int) ([]T, error) {
	src, err := d.PackedSource(limit)
	if err != nil {
		return nil, err
	}
	out, err := Unpack[T](src)
	if err != nil {
		return nil, d.Errorf("%v", err)
	}
	return out, nil
}

// AtLeast checks unpacked int32s against a lower bound (a JSON array's
// values are checked as they are read; base64's only after); the error,
// which has no path, names the first value below it.
func AtLeast(xs []int32, lo int32) error {
	for j, x := range xs {
		if x < lo {
			return fmt.Errorf("value %d is %d, below %d", j, x, lo)
		}
	}
	return nil
}

// Int32s reads a packed int32 array of at most limit values, each at
// least lo (token ids: 0; top-k ids: −1 for an unused entry).
func (d *Decoder) Int32s(lo int32, limit int) ([]int32, error) {
	if d.Peek() == '"' {
		out, err := packed[int32](d, limit)
		if err != nil {
			return nil, err
		}
		if err := AtLeast(out, lo); err != nil {
			return nil, d.Errorf("%v", err)
		}
		return out, nil
	}
	var out []int32
	err := d.Array(limit, func(int) error {
		n, err := d.fastInt(int64(lo), math.MaxInt32)
		out = append(out, int32(n))
		return err
	})
	return out, err
}

// Float32s reads a packed float32 array of at most limit values (base64
// may hold any float32, infinities and NaN too: the caller checks the
// values it cares about).
func (d *Decoder) Float32s(limit int) ([]float32, error) {
	if d.Peek() == '"' {
		return packed[float32](d, limit)
	}
	out := []float32{}
	err := d.Array(limit, func(int) error {
		x, err := d.floatBits(32)
		out = append(out, float32(x))
		return err
	})
	return out, err
}

// Offsets reads at most limit [start, end) byte ranges, one per token:
// [[s, e], …] in JSON, or packed as base64 of s0, e0, s1, e1, … (int32s).
func (d *Decoder) Offsets(limit int) ([][2]int, error) {
	if d.Peek() == '"' {
		return d.packedOffsets(limit)
	}
	var out [][2]int
	err := d.Array(limit, func(int) error {
		var r [2]int
		n := 0
		err := d.Array(math.MaxInt, func(j int) error {
			if j >= 2 {
				return d.Errorf("want a [start, end] pair, got more values")
			}
			x, err := d.fastInt(math.MinInt32, math.MaxInt32)
			r[j], n = int(x), j+1
			return err
		})
		if err == nil && n != 2 {
			err = d.Errorf("want a [start, end] pair, got %d values", n)
		}
		out = append(out, r)
		return err
	})
	return out, err
}

// packedOffsets is Offsets of a base64 string, decoded into a scratch
// buffer reused across responses: only the pairs are kept.
func (d *Decoder) packedOffsets(limit int) ([][2]int, error) {
	src, err := d.PackedSource(2 * limit)
	if err != nil {
		return nil, err
	}
	n := base64.StdEncoding.DecodedLen(len(src))/4 + 1
	if cap(d.scratch) < n {
		d.scratch = make([]int32, n)
	}
	flat, err := unpackInto(d.scratch[:n], src)
	if err != nil {
		return nil, d.Errorf("%v", err)
	}
	if len(flat)%2 != 0 {
		return nil, d.Errorf("%d values are not whole [start, end] pairs", len(flat))
	}
	out := make([][2]int, len(flat)/2)
	for t := range out {
		out[t] = [2]int{int(flat[2*t]), int(flat[2*t+1])}
	}
	return out, nil
}
