// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd

package simdmath_test

import (
	"math"
	"simd"
	"testing"

	"github.com/gomlx/compute/dtypes/bfloat16"
	"github.com/gomlx/compute/dtypes/float16"
	"github.com/gomlx/compute/support/simdmath"
)

func TestFloat32Math(t *testing.T) {
	vLen := simd.BroadcastFloat32s(0).Len()
	in := make([]float32, vLen)
	for i := range in {
		in[i] = float32(i)*0.5 - 2.0
	}
	v := simd.LoadFloat32s(in)

	// Exp
	vExp := simdmath.ExpFloat32(v)
	outExp := make([]float32, vLen)
	vExp.Store(outExp)
	for i, x := range in {
		expected := float32(math.Exp(float64(x)))
		delta := float32(math.Abs(float64(outExp[i] - expected)))
		relDelta := delta / float32(math.Abs(float64(expected)))
		if relDelta > 1e-4 && delta > 1e-4 {
			t.Errorf("ExpFloat32(%v) = %v, expected %v (relDelta: %v)", x, outExp[i], expected, relDelta)
		}
	}

	// Tanh
	vTanh := simdmath.TanhFloat32(v)
	outTanh := make([]float32, vLen)
	vTanh.Store(outTanh)
	for i, x := range in {
		expected := float32(math.Tanh(float64(x)))
		delta := float32(math.Abs(float64(outTanh[i] - expected)))
		if delta > 1e-3 {
			t.Errorf("TanhFloat32(%v) = %v, expected %v (delta: %v)", x, outTanh[i], expected, delta)
		}
	}

	// Erf
	vErf := simdmath.ErfFloat32(v)
	outErf := make([]float32, vLen)
	vErf.Store(outErf)
	for i, x := range in {
		expected := float32(math.Erf(float64(x)))
		delta := float32(math.Abs(float64(outErf[i] - expected)))
		if delta > 1e-4 {
			t.Errorf("ErfFloat32(%v) = %v, expected %v (delta: %v)", x, outErf[i], expected, delta)
		}
	}

	// Sqrt & Inv
	posIn := make([]float32, vLen)
	for i := range posIn {
		posIn[i] = float32(i) + 1.0
	}
	vPos := simd.LoadFloat32s(posIn)
	vSqrt := simdmath.SqrtFloat32(vPos)
	outSqrt := make([]float32, vLen)
	vSqrt.Store(outSqrt)
	for i, x := range posIn {
		expected := float32(math.Sqrt(float64(x)))
		if math.Abs(float64(outSqrt[i]-expected)) > 1e-5 {
			t.Errorf("SqrtFloat32(%v) = %v, expected %v", x, outSqrt[i], expected)
		}
	}

	vInv := simdmath.InvFloat32(vPos)
	outInv := make([]float32, vLen)
	vInv.Store(outInv)
	for i, x := range posIn {
		expected := 1.0 / x
		if math.Abs(float64(outInv[i]-expected)) > 1e-5 {
			t.Errorf("InvFloat32(%v) = %v, expected %v", x, outInv[i], expected)
		}
	}
}

func TestFloat64Math(t *testing.T) {
	vLen := simd.BroadcastFloat64s(0).Len()
	in := make([]float64, vLen)
	for i := range in {
		in[i] = float64(i)*0.5 - 2.0
	}
	v := simd.LoadFloat64s(in)

	// Exp
	vExp := simdmath.ExpFloat64(v)
	outExp := make([]float64, vLen)
	vExp.Store(outExp)
	for i, x := range in {
		expected := math.Exp(x)
		delta := math.Abs(outExp[i] - expected)
		relDelta := delta / math.Abs(expected)
		if relDelta > 1e-5 && delta > 1e-5 {
			t.Errorf("ExpFloat64(%v) = %v, expected %v (relDelta: %v)", x, outExp[i], expected, relDelta)
		}
	}

	// Tanh
	vTanh := simdmath.TanhFloat64(v)
	outTanh := make([]float64, vLen)
	vTanh.Store(outTanh)
	for i, x := range in {
		expected := math.Tanh(x)
		delta := math.Abs(outTanh[i] - expected)
		if delta > 1e-4 {
			t.Errorf("TanhFloat64(%v) = %v, expected %v (delta: %v)", x, outTanh[i], expected, delta)
		}
	}

	// Erf
	vErf := simdmath.ErfFloat64(v)
	outErf := make([]float64, vLen)
	vErf.Store(outErf)
	for i, x := range in {
		expected := math.Erf(x)
		delta := math.Abs(outErf[i] - expected)
		if delta > 1e-4 {
			t.Errorf("ErfFloat64(%v) = %v, expected %v (delta: %v)", x, outErf[i], expected, delta)
		}
	}
}

func TestBF16F16Adapters(t *testing.T) {
	vLen := simd.BroadcastFloat32s(0).Len()
	bfIn := make([]bfloat16.BFloat16, vLen)
	f16In := make([]float16.Float16, vLen)
	for i := range bfIn {
		v := float32(i) * 0.25
		bfIn[i] = bfloat16.FromFloat32(v)
		f16In[i] = float16.FromFloat32(v)
	}

	vBF := simdmath.LoadBFloat16s(bfIn)
	bfOut := make([]bfloat16.BFloat16, vLen)
	simdmath.StoreBFloat16s(bfOut, vBF)
	for i := range bfIn {
		if bfOut[i] != bfIn[i] {
			t.Errorf("BFloat16 roundtrip at %d: got %v, expected %v", i, bfOut[i], bfIn[i])
		}
	}

	vF16 := simdmath.LoadFloat16s(f16In)
	f16Out := make([]float16.Float16, vLen)
	simdmath.StoreFloat16s(f16Out, vF16)
	for i := range f16In {
		if f16Out[i] != f16In[i] {
			t.Errorf("Float16 roundtrip at %d: got %v, expected %v", i, f16Out[i], f16In[i])
		}
	}
}

// TestExpFloat32s: the slice form equals ExpFloat32 bit for bit, on
// lengths with and without a partial last vector, over the clamped range
// and beyond it.
func TestExpFloat32s(t *testing.T) {
	vLen := simd.BroadcastFloat32s(0).Len()
	for _, n := range []int{1, vLen - 1, vLen, 3*vLen + 5, 1000} {
		in := make([]float32, n)
		for i := range in {
			in[i] = float32(i%251)*0.9 - 110 // −110 … 115
		}
		got := make([]float32, n)
		simdmath.ExpFloat32s(in, got)
		for i := 0; i < n; i += vLen {
			part := make([]float32, vLen)
			copy(part, in[i:])
			want := make([]float32, vLen)
			simdmath.ExpFloat32(simd.LoadFloat32s(part)).Store(want)
			for j := 0; j < vLen && i+j < n; j++ {
				if math.Float32bits(got[i+j]) != math.Float32bits(want[j]) {
					t.Fatalf("n=%d: ExpFloat32s(%v) = %v, ExpFloat32 gives %v", n, in[i+j], got[i+j], want[j])
				}
			}
		}
	}
}

func BenchmarkExpFloat32(b *testing.B) {
	in, out := make([]float32, 1<<16), make([]float32, 1<<16)
	for i := range in {
		in[i] = float32(i%200)*0.1 - 15
	}
	vLen := simd.BroadcastFloat32s(0).Len()
	b.Run("per-vector", func(b *testing.B) {
		fn := simdmath.ExpFloat32
		for b.Loop() {
			for i := 0; i+vLen <= len(out); i += vLen {
				fn(simd.LoadFloat32s(in[i:])).Store(out[i:])
			}
		}
	})
	b.Run("slice", func(b *testing.B) {
		for b.Loop() {
			simdmath.ExpFloat32s(in, out)
		}
	})
	b.Run("sigmoid-per-vector", func(b *testing.B) {
		fn := simdmath.SigmoidFloat32
		for b.Loop() {
			for i := 0; i+vLen <= len(out); i += vLen {
				fn(simd.LoadFloat32s(in[i:])).Store(out[i:])
			}
		}
	})
	b.Run("sigmoid-slice", func(b *testing.B) {
		for b.Loop() {
			simdmath.SigmoidFloat32s(in, out)
		}
	})
}

// TestSigmoidFloat32s: the slice form equals SigmoidFloat32 bit for bit.
func TestSigmoidFloat32s(t *testing.T) {
	vLen := simd.BroadcastFloat32s(0).Len()
	for _, n := range []int{1, vLen - 1, vLen, 3*vLen + 5, 1000} {
		in := make([]float32, n)
		for i := range in {
			in[i] = float32(i%251)*0.9 - 110
		}
		got := make([]float32, n)
		simdmath.SigmoidFloat32s(in, got)
		for i := 0; i < n; i += vLen {
			part := make([]float32, vLen)
			copy(part, in[i:])
			want := make([]float32, vLen)
			simdmath.SigmoidFloat32(simd.LoadFloat32s(part)).Store(want)
			for j := 0; j < vLen && i+j < n; j++ {
				if math.Float32bits(got[i+j]) != math.Float32bits(want[j]) {
					t.Fatalf("n=%d: SigmoidFloat32s(%v) = %v, SigmoidFloat32 gives %v", n, in[i+j], got[i+j], want[j])
				}
			}
		}
	}
}
