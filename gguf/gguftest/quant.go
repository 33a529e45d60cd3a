package gguftest

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/credo-rl/credo/gguf"
)

// Quantize encodes x (a whole number of 32-element blocks for the block
// types) as t, the way ggml's reference quantizers do (quantize_row_*_ref).
func Quantize(t gguf.Type, x []float32) []byte {
	le := binary.LittleEndian
	var out []byte
	switch t {
	case gguf.F32:
		for _, v := range x {
			out = le.AppendUint32(out, math.Float32bits(v))
		}
	case gguf.F16:
		for _, v := range x {
			out = le.AppendUint16(out, Half(v))
		}
	case gguf.BF16:
		for _, v := range x {
			b := math.Float32bits(v)
			out = le.AppendUint16(out, uint16((b+0x7fff+(b>>16&1))>>16))
		}
	case gguf.Q8_0, gguf.Q4_0, gguf.Q4_1:
		if len(x)%32 != 0 {
			panic(fmt.Sprintf("gguftest: %d values are not whole blocks of 32", len(x)))
		}
		for b := 0; b < len(x); b += 32 {
			out = quantBlock(out, t, x[b:b+32])
		}
	default:
		panic("gguftest: cannot quantize " + t.String())
	}
	return out
}

// quantBlock appends one block of 32 values.
func quantBlock(out []byte, t gguf.Type, x []float32) []byte {
	le := binary.LittleEndian
	lo, hi, amax, signed := x[0], x[0], float32(0), float32(0)
	for _, v := range x {
		lo, hi = min(lo, v), max(hi, v)
		if a := float32(math.Abs(float64(v))); a > amax {
			amax, signed = a, v
		}
	}
	inv := func(d float32) float32 {
		if d == 0 {
			return 0
		}
		return 1 / d
	}
	switch t {
	case gguf.Q8_0:
		d := amax / 127
		out = le.AppendUint16(out, Half(d))
		for _, v := range x {
			out = append(out, byte(int8(math.Round(float64(v*inv(d))))))
		}
	case gguf.Q4_0:
		d := signed / -8
		out = le.AppendUint16(out, Half(d))
		for j := range 16 {
			a := min(15, int(x[j]*inv(d)+8.5))
			b := min(15, int(x[j+16]*inv(d)+8.5))
			out = append(out, byte(a)|byte(b)<<4)
		}
	case gguf.Q4_1:
		d := (hi - lo) / 15
		out = le.AppendUint16(le.AppendUint16(out, Half(d)), Half(lo))
		for j := range 16 {
			a := min(15, int((x[j]-lo)*inv(d)+0.5))
			b := min(15, int((x[j+16]-lo)*inv(d)+0.5))
			out = append(out, byte(a)|byte(b)<<4)
		}
	}
	return out
}

// Half rounds f to IEEE binary16, to nearest even.
func Half(f float32) uint16 {
	var sign uint16
	if math.Signbit(float64(f)) {
		sign, f = 0x8000, -f
	}
	switch {
	case f != f:
		return 0x7e00
	case f == 0:
		return sign
	}
	frac, exp := math.Frexp(float64(f)) // f = frac · 2^exp, frac in [0.5, 1)
	e := exp - 1 + 15                   // the biased binary16 exponent
	if e <= 0 {                         // subnormal: units of 2^−24
		return sign | uint16(math.RoundToEven(float64(f)*(1<<24)))
	}
	m := math.RoundToEven((2*frac - 1) * 1024)
	if m == 1024 {
		m, e = 0, e+1
	}
	if e >= 0x1f {
		return sign | 0x7c00
	}
	return sign | uint16(e)<<10 | uint16(m)
}
