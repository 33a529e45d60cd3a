package hf

import (
	"math"
	"path/filepath"
	"testing"
)

// TestReferenceDTypeRounding compares float32 → bfloat16 and → float16
// with PyTorch's .to() on random values across scales, exact ties,
// float16's overflow edge and subnormals, zeros, infinities and NaN
// (fixture from scripts/reference.py).
func TestReferenceDTypeRounding(t *testing.T) {
	fx, err := ReadSafetensors(filepath.Join("testdata", "reference", "dtype_expected.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	x := fx["x"].Data
	for _, tc := range []struct {
		name string
		conv func(float32) uint16
	}{{"bf16", floatToBF16}, {"f16", floatToHalf}} {
		bad := 0
		for i, v := range x {
			want := uint16(fx[tc.name].Data[i])
			if got := tc.conv(v); got != want {
				if bad < 5 {
					t.Errorf("%s(%g = %#08x) = %#04x, PyTorch %#04x", tc.name, v, math.Float32bits(v), got, want)
				}
				bad++
			}
		}
		t.Logf("%s: %d of %d values differ from PyTorch", tc.name, bad, len(x))
	}
}

// Every finite 16-bit value converts to float32 and back unchanged, so a
// BF16 or F16 folder re-saves byte for byte.
func TestHalfRoundTripExhaustive(t *testing.T) {
	for h := range 1 << 16 {
		b := uint16(h)
		if f := math.Float32frombits(uint32(b) << 16); f == f && floatToBF16(f) != b {
			t.Fatalf("bf16 %#04x → %g → %#04x", b, f, floatToBF16(f))
		}
		if f := halfToFloat(b); f == f && floatToHalf(f) != b {
			t.Fatalf("f16 %#04x → %g → %#04x", b, f, floatToHalf(f))
		}
	}
}
