package gguf

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Type is a ggml tensor type (ggml_type in ggml.h).
type Type uint32

// The ggml types credo knows by name. Only some can be dequantized
// (Dequantize); the others are named in errors.
const (
	F32  Type = 0
	F16  Type = 1
	Q4_0 Type = 2
	Q4_1 Type = 3
	Q5_0 Type = 6
	Q5_1 Type = 7
	Q8_0 Type = 8
	Q8_1 Type = 9
	Q2_K Type = 10
	Q3_K Type = 11
	Q4_K Type = 12
	Q5_K Type = 13
	Q6_K Type = 14
	Q8_K Type = 15
	I8   Type = 24
	I16  Type = 25
	I32  Type = 26
	I64  Type = 27
	F64  Type = 28
	BF16 Type = 30
)

// typeInfo is each known type's name, elements per block and bytes per
// block (ggml's type_traits).
var typeInfo = map[Type]struct {
	name         string
	block, bytes int64
}{
	F32: {"F32", 1, 4}, F16: {"F16", 1, 2}, BF16: {"BF16", 1, 2}, F64: {"F64", 1, 8},
	Q4_0: {"Q4_0", 32, 18}, Q4_1: {"Q4_1", 32, 20}, Q5_0: {"Q5_0", 32, 22}, Q5_1: {"Q5_1", 32, 24},
	Q8_0: {"Q8_0", 32, 34}, Q8_1: {"Q8_1", 32, 36},
	Q2_K: {"Q2_K", 256, 84}, Q3_K: {"Q3_K", 256, 110}, Q4_K: {"Q4_K", 256, 144},
	Q5_K: {"Q5_K", 256, 176}, Q6_K: {"Q6_K", 256, 210}, Q8_K: {"Q8_K", 256, 292},
	I8: {"I8", 1, 1}, I16: {"I16", 1, 2}, I32: {"I32", 1, 4}, I64: {"I64", 1, 8},
}

func (t Type) String() string {
	if i, ok := typeInfo[t]; ok {
		return i.name
	}
	return fmt.Sprintf("type %d", uint32(t))
}

// blockLayout is t's elements and bytes per block; ok is false for a type
// credo does not know.
func (t Type) blockLayout() (block, bytes int64, ok bool) {
	i, ok := typeInfo[t]
	return i.block, i.bytes, ok
}

// dequantizers decode whole blocks of src into dst (len(dst) elements).
var dequantizers = map[Type]func(dst []float32, src []byte){
	F32:  dequantF32,
	F16:  dequantF16,
	BF16: dequantBF16,
	Q8_0: dequantQ8_0,
	Q4_0: func(dst []float32, src []byte) { dequantQ4(dst, src, false) },
	Q4_1: func(dst []float32, src []byte) { dequantQ4(dst, src, true) },
	Q5_0: func(dst []float32, src []byte) { dequantQ5(dst, src, false) },
	Q5_1: func(dst []float32, src []byte) { dequantQ5(dst, src, true) },
}

// Supported lists the types Dequantize decodes, for error messages.
const Supported = "F32, F16, BF16, Q8_0, Q4_0, Q4_1, Q5_0, Q5_1"

// Dequantize decodes n elements of type t from src, which must hold
// exactly their blocks. An unsupported type is an error naming it.
func Dequantize(t Type, src []byte, n int64) ([]float32, error) {
	f, ok := dequantizers[t]
	if !ok {
		return nil, fmt.Errorf("tensor type %s cannot be dequantized (credo reads %s)", t, Supported)
	}
	block, bytes, _ := t.blockLayout()
	if n < 0 || n%block != 0 || int64(len(src)) != n/block*bytes {
		return nil, fmt.Errorf("dequantize %s: %d bytes do not hold %d elements (%d per %d-byte block)", t, len(src), n, block, bytes)
	}
	dst := make([]float32, n)
	f(dst, src)
	return dst, nil
}

// halfBits converts IEEE binary16 to float32 exactly.
func halfBits(h uint16) float32 {
	sign := float32(1)
	if h&0x8000 != 0 {
		sign = -1
	}
	exp, frac := int(h>>10)&0x1f, float64(h&0x3ff)
	switch exp {
	case 0: // zero or subnormal: frac · 2^−24
		return sign * float32(math.Ldexp(frac, -24))
	case 0x1f:
		if frac != 0 {
			return float32(math.NaN())
		}
		return sign * float32(math.Inf(1))
	}
	return sign * float32(math.Ldexp(1+frac/1024, exp-15))
}

func dequantF32(dst []float32, src []byte) {
	for i := range dst {
		dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(src[4*i:]))
	}
}

func dequantF16(dst []float32, src []byte) {
	for i := range dst {
		dst[i] = halfBits(binary.LittleEndian.Uint16(src[2*i:]))
	}
}

// dequantBF16: a bfloat16 is the top half of a float32.
func dequantBF16(dst []float32, src []byte) {
	for i := range dst {
		dst[i] = math.Float32frombits(uint32(binary.LittleEndian.Uint16(src[2*i:])) << 16)
	}
}

// blocks32 walks the 32-element blocks of src, each a f16 scale d, with
// a min a f16 m after it, then the quants: decode fills out from them.
func blocks32(dst []float32, src []byte, withMin bool, size int, decode func(out []float32, q []byte, d, m float32)) {
	head := 2
	if withMin {
		head = 4
	}
	for b := 0; b < len(dst)/32; b++ {
		blk := src[size*b : size*b+size]
		d, m := halfBits(binary.LittleEndian.Uint16(blk)), float32(0)
		if withMin {
			m = halfBits(binary.LittleEndian.Uint16(blk[2:]))
		}
		decode(dst[32*b:32*b+32], blk[head:], d, m)
	}
}

// dequantQ8_0: blocks of {f16 d; int8 q[32]}, x = d·q.
func dequantQ8_0(dst []float32, src []byte) {
	blocks32(dst, src, false, 34, func(out []float32, q []byte, d, _ float32) {
		for j, v := range q {
			out[j] = d * float32(int8(v))
		}
	})
}

// dequantQ4: Q4_0 blocks of {f16 d; u8 qs[16]}, x = d·(q − 8); Q4_1 blocks
// of {f16 d; f16 m; u8 qs[16]}, x = d·q + m. Element j of a block is the
// low nibble of qs[j], element j+16 its high nibble.
func dequantQ4(dst []float32, src []byte, withMin bool) {
	size, offset := 18, float32(8)
	if withMin {
		size, offset = 20, 0
	}
	blocks32(dst, src, withMin, size, func(out []float32, qs []byte, d, m float32) {
		for j, q := range qs {
			// float32(…) rounds the product, so no fused multiply-add changes
			// the result against ggml's reference.
			out[j] = float32(d*(float32(q&0xf)-offset)) + m
			out[j+16] = float32(d*(float32(q>>4)-offset)) + m
		}
	})
}

// dequantQ5: Q5_0 blocks of {f16 d; u32 qh; u8 qs[16]}, x = d·(q − 16);
// Q5_1 blocks of {f16 d; f16 m; u32 qh; u8 qs[16]}, x = d·q + m, where
// element j's fifth bit is bit j of qh (the low nibbles of qs hold
// elements 0..15, the high ones 16..31).
func dequantQ5(dst []float32, src []byte, withMin bool) {
	size, offset := 22, float32(16)
	if withMin {
		size, offset = 24, 0
	}
	blocks32(dst, src, withMin, size, func(out []float32, rest []byte, d, m float32) {
		qh := binary.LittleEndian.Uint32(rest)
		for j, q := range rest[4:] {
			lo := uint32(q&0xf) | (qh>>j&1)<<4
			hi := uint32(q>>4) | (qh>>(j+16)&1)<<4
			out[j] = float32(d*(float32(lo)-offset)) + m
			out[j+16] = float32(d*(float32(hi)-offset)) + m
		}
	})
}
