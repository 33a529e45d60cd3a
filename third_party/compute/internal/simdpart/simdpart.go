// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd

package simdpart

import "simd"

// bufLen is more elements than any vector holds, so a whole-vector load
// from the start of a slice with this capacity stays inside its memory.
const bufLen = 64

// inside returns s when a whole vector loaded from its start stays inside
// its backing array, else a copy of s at the start of buf (zero after it).
func inside[T any](s []T, buf *[bufLen]T) []T {
	if cap(s) >= bufLen {
		return s
	}
	return buf[:copy(buf[:], s)]
}

// LoadFloat32sPart is simd.LoadFloat32sPart without reading past s.
func LoadFloat32sPart(s []float32) (simd.Float32s, int) {
	var buf [bufLen]float32
	return simd.LoadFloat32sPart(inside(s, &buf))
}

// LoadFloat64sPart is simd.LoadFloat64sPart without reading past s.
func LoadFloat64sPart(s []float64) (simd.Float64s, int) {
	var buf [bufLen]float64
	return simd.LoadFloat64sPart(inside(s, &buf))
}

// LoadInt32sPart is simd.LoadInt32sPart without reading past s.
func LoadInt32sPart(s []int32) (simd.Int32s, int) {
	var buf [bufLen]int32
	return simd.LoadInt32sPart(inside(s, &buf))
}

// LoadUint32sPart is simd.LoadUint32sPart without reading past s.
func LoadUint32sPart(s []uint32) (simd.Uint32s, int) {
	var buf [bufLen]uint32
	return simd.LoadUint32sPart(inside(s, &buf))
}

// LoadInt64sPart is simd.LoadInt64sPart without reading past s.
func LoadInt64sPart(s []int64) (simd.Int64s, int) {
	var buf [bufLen]int64
	return simd.LoadInt64sPart(inside(s, &buf))
}

// LoadUint64sPart is simd.LoadUint64sPart without reading past s.
func LoadUint64sPart(s []uint64) (simd.Uint64s, int) {
	var buf [bufLen]uint64
	return simd.LoadUint64sPart(inside(s, &buf))
}

// LoadUint16sPart is simd.LoadUint16sPart without reading past s.
func LoadUint16sPart(s []uint16) (simd.Uint16s, int) {
	var buf [bufLen]uint16
	return simd.LoadUint16sPart(inside(s, &buf))
}
