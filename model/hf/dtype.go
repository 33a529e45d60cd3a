package hf

import "math"

// Weights are stored as F32, BF16 or F16 and always computed in float32
// (model.StorageDType and model.TorchDType relate the names); these are
// the conversions between float32 and the 16-bit formats.

// floatToBF16 rounds to bfloat16 to nearest, ties to even, as a PyTorch
// tensor's .to(torch.bfloat16) does; NaN becomes 0xffff, the NaN ATen's
// vectorised conversion writes.
func floatToBF16(f float32) uint16 {
	if f != f {
		return 0xffff
	}
	b := math.Float32bits(f)
	b += 0x7fff + (b>>16)&1
	return uint16(b >> 16)
}

// floatToHalf rounds to IEEE binary16 to nearest, ties to even, with
// overflow to ±Inf and gradual underflow, as PyTorch's .to(torch.float16).
func floatToHalf(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int(b>>23) & 0xff
	mant := b & 0x7fffff
	if exp == 0xff { // Inf or NaN
		if mant != 0 {
			return sign | 0x7e00
		}
		return sign | 0x7c00
	}
	e := exp - 127 + 15 // the binary16 exponent field
	if e >= 0x1f {
		return sign | 0x7c00
	}
	if e <= 0 { // a binary16 subnormal (or zero): units of 2^−24
		if e < -10 {
			return sign // below half the smallest subnormal
		}
		m := mant | 0x800000
		shift := uint(14 - e)
		h := m >> shift
		rem, half := m&(1<<shift-1), uint32(1)<<(shift-1)
		if rem > half || (rem == half && h&1 == 1) {
			h++
		}
		return sign | uint16(h)
	}
	h := uint32(e)<<10 | mant>>13
	rem := mant & 0x1fff
	if rem > 0x1000 || (rem == 0x1000 && h&1 == 1) {
		h++ // a carry into the exponent is right, up to 0x7c00 (Inf)
	}
	return sign | uint16(h)
}

// halfToFloat converts an IEEE 754 binary16 value.
func halfToFloat(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h) & 0x3ff
	switch {
	case exp == 0 && frac == 0:
		return math.Float32frombits(sign)
	case exp == 0: // subnormal: value = frac · 2^−24
		v := float32(frac) / (1 << 24)
		if sign != 0 {
			v = -v
		}
		return v
	case exp == 0x1f:
		return math.Float32frombits(sign | 0xff<<23 | frac<<13)
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | frac<<13)
}
