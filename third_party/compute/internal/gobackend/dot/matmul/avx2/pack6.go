// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package avx2

import (
	"simd/archsimd"
	"unsafe"

	"github.com/gomlx/compute/dtypes/gotype"
)

// packLHSKernelRows6 packs the lhs block of rows [rowStart, rowStart+copyRows)
// and contracting columns [colStart, colStart+contractingCols) of a
// row-major lhs with lhsCols columns into panel, in strips of 6 rows for the
// 6 x 16 microkernel: [ceil(copyRows/6), contractingCols, 6], the last
// strip padded with zeros.
func packLHSKernelRows6[T gotype.ScalarNotComplex](
	lhs, panel []T,
	rowStart, colStart, lhsCols,
	copyRows, contractingCols int) {
	var zero T
	p := 0
	for strip := 0; strip < copyRows; strip += 6 {
		rows := min(6, copyRows-strip)
		base := (rowStart+strip)*lhsCols + colStart
		if rows < 6 {
			for k := range contractingCols {
				for r := range 6 {
					if r < rows {
						panel[p+6*k+r] = lhs[base+r*lhsCols+k]
					} else {
						panel[p+6*k+r] = zero
					}
				}
			}
			p += 6 * contractingCols
			continue
		}
		r0 := lhs[base : base+contractingCols]
		r1 := lhs[base+lhsCols:][:len(r0)]
		r2 := lhs[base+2*lhsCols:][:len(r0)]
		r3 := lhs[base+3*lhsCols:][:len(r0)]
		r4 := lhs[base+4*lhsCols:][:len(r0)]
		r5 := lhs[base+5*lhsCols:][:len(r0)]
		dst := panel[p : p+6*len(r0)]
		k := 0
		if unsafe.Sizeof(zero) == 4 {
			for ; k+8 <= len(r0); k += 8 {
				pack6x8x32bits(unsafe.Pointer(&dst[6*k]), unsafe.Pointer(&r0[k]), unsafe.Pointer(&r1[k]), unsafe.Pointer(&r2[k]),
					unsafe.Pointer(&r3[k]), unsafe.Pointer(&r4[k]), unsafe.Pointer(&r5[k]))
			}
		}
		for ; k < len(r0); k++ {
			d := (*[6]T)(unsafe.Pointer(&dst[6*k]))
			d[0], d[1], d[2], d[3], d[4], d[5] = r0[k], r1[k], r2[k], r3[k], r4[k], r5[k]
		}
		p += 6 * contractingCols
	}
}

// pack6x8x32bits packs 8 consecutive 32-bit values of each of 6 rows
// (r0..r5) into dst as 8 groups of 6, one per column: rows 0-3 through
// in-lane 32- and 64-bit interleaves (a 16-byte store per column), rows 4-5
// through one 32-bit interleave (an 8-byte store per column). No lane
// crossing: each 128-bit half is stored on its own.
func pack6x8x32bits(dst, r0, r1, r2, r3, r4, r5 unsafe.Pointer) {
	v0 := archsimd.LoadUint32x8Array((*[8]uint32)(r0))
	v1 := archsimd.LoadUint32x8Array((*[8]uint32)(r1))
	v2 := archsimd.LoadUint32x8Array((*[8]uint32)(r2))
	v3 := archsimd.LoadUint32x8Array((*[8]uint32)(r3))
	v4 := archsimd.LoadUint32x8Array((*[8]uint32)(r4))
	v5 := archsimd.LoadUint32x8Array((*[8]uint32)(r5))
	t0 := v0.InterleaveLoGrouped(v1).AsUint64x4()  // [a0 b0 a1 b1 | a4 b4 a5 b5]
	t1 := v2.InterleaveLoGrouped(v3).AsUint64x4()  // [c0 d0 c1 d1 | c4 d4 c5 d5]
	t2 := v0.InterleaveHiGrouped(v1).AsUint64x4()  // [a2 b2 a3 b3 | a6 b6 a7 b7]
	t3 := v2.InterleaveHiGrouped(v3).AsUint64x4()  // [c2 d2 c3 d3 | c6 d6 c7 d7]
	c04 := t0.InterleaveLoGrouped(t1).AsUint32x8() // columns 0 | 4, rows 0-3
	c15 := t0.InterleaveHiGrouped(t1).AsUint32x8() // columns 1 | 5
	c26 := t2.InterleaveLoGrouped(t3).AsUint32x8() // columns 2 | 6
	c37 := t2.InterleaveHiGrouped(t3).AsUint32x8() // columns 3 | 7
	lo := v4.InterleaveLoGrouped(v5).AsUint64x4()  // (r4, r5) of columns [0 1 | 4 5]
	hi := v4.InterleaveHiGrouped(v5).AsUint64x4()  // (r4, r5) of columns [2 3 | 6 7]
	const g = 24                                   // bytes per column group of 6
	col := func(j int) *[4]uint32 { return (*[4]uint32)(unsafe.Add(dst, j*g)) }
	pair := func(j int) *uint64 { return (*uint64)(unsafe.Add(dst, j*g+16)) }
	c04.GetLo().StoreArray(col(0))
	c15.GetLo().StoreArray(col(1))
	c26.GetLo().StoreArray(col(2))
	c37.GetLo().StoreArray(col(3))
	c04.GetHi().StoreArray(col(4))
	c15.GetHi().StoreArray(col(5))
	c26.GetHi().StoreArray(col(6))
	c37.GetHi().StoreArray(col(7))
	l0, l1, h0, h1 := lo.GetLo(), lo.GetHi(), hi.GetLo(), hi.GetHi()
	*pair(0), *pair(1) = l0.GetElem(0), l0.GetElem(1)
	*pair(2), *pair(3) = h0.GetElem(0), h0.GetElem(1)
	*pair(4), *pair(5) = l1.GetElem(0), l1.GetElem(1)
	*pair(6), *pair(7) = h1.GetElem(0), h1.GetElem(1)
}
