// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package avx2

import (
	"sync/atomic"
	"unsafe"

	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/support/envutil"
)

// A skinny product is a few lhs rows times a wide, deep rhs: a decoding
// step's linear layers, [B, D] × [F, D]ᵀ with B a few dozen rows and the
// weights in PyTorch's [out, in] layout. The large path packs the whole rhs
// into panels on every call (a read and a write of every weight, then a
// second read), and the small path walks the whole rhs once per group of 4
// lhs rows on one core. Here every output column is the dot product of an
// lhs row with one rhs row: the rhs is read front to back, once, each six
// of its rows meeting every lhs row while in L1 (the 2×6 tile), and the
// columns are shared out among the workers. (A [K, N] rhs read this way is strided,
// and copying it a strip at a time measured slower than the paths it would
// replace, so only the transposed layout has a skinny path.)
const (
	// skinnyMaxRows bounds the lhs rows of a skinny product: beyond it the
	// large path's packing pays for itself.
	skinnyMaxRows = 64
	// skinnyMinWork is the multiply-adds below which one core does it all.
	skinnyMinWork = 1 << 18
)

// avx2SkinnyEnabled is false under GOMLX_GO_AVX2_SKINNY=false and in the
// benchmark that compares the skinny path with the others.
var avx2SkinnyEnabled = envutil.MustReadBool(envutil.GoBackendAVX2_Skinny, true)

// isSkinnyTransposedFloat32 says whether a transposed float32 product (rhs
// [N, K], PyTorch's [out, in] weights) takes the skinny path: one batch
// item, 4 to skinnyMaxRows lhs rows, at least 64 output columns, enough work
// to share, and K a multiple of 8 so that the tiles' vector loop covers it.
func isSkinnyTransposedFloat32(batchSize, lhsCrossSize, rhsCrossSize, contractingSize int) bool {
	return avx2SkinnyEnabled && batchSize == 1 && lhsCrossSize >= 4 && lhsCrossSize <= skinnyMaxRows &&
		rhsCrossSize >= 64 && lhsCrossSize*rhsCrossSize*contractingSize >= skinnyMinWork && contractingSize%8 == 0
}

// SkinnyTransposedFloat32 runs output [M, N] = lhs [M, K] · rhsᵀ (rhs
// [N, K]) on the skinny path and reports true when the shape takes it (else
// it does nothing): the AVX-512 router's way to it, since its own paths
// pack the weights on every call too.
func SkinnyTransposedFloat32(backend *gobackend.Backend, lhs, rhs []float32, batchSize, M, N, K int, output []float32) bool {
	if !isSkinnyTransposedFloat32(batchSize, M, N, K) {
		return false
	}
	avx2SkinnyTransposedFloat32(backend, lhs, rhs, M, N, K, output)
	return true
}

// skinnyTransposedColsPerItem is how many output columns a worker takes at
// a time on the transposed skinny path: six 2×6 tiles.
const skinnyTransposedColsPerItem = 36

// avx2SkinnyTransposedFloat32 computes output [M, N] = lhs [M, K] · rhsᵀ
// with rhs [N, K] row major, items of skinnyTransposedColsPerItem columns
// shared out among the workers.
func avx2SkinnyTransposedFloat32(backend *gobackend.Backend, lhs, rhs []float32, M, N, K int, output []float32) {
	items := (N + skinnyTransposedColsPerItem - 1) / skinnyTransposedColsPerItem
	var next atomic.Int64
	work := func() {
		var scratch [8]float32 // a 4×2 tile's, or a 2×6 tile's second row
		for {
			it := int(next.Add(1) - 1)
			if it >= items {
				return
			}
			from := it * skinnyTransposedColsPerItem
			to := min(N, from+skinnyTransposedColsPerItem)
			skinnyTransposedColumnsFloat32(lhs, rhs, M, N, K, from, to, output, &scratch)
		}
	}
	if backend == nil || backend.Workers == nil || backend.Workers.AdjustedMaxParallelism() <= 1 || items == 1 ||
		M*N*K < 2*skinnyMinWork {
		work()
		return
	}
	backend.Workers.Saturate(work)
}

// skinnyTransposedColumnsFloat32 computes output columns [from, to) of every
// row: 6 at a time through the 2×6 tile, pairs of rows; the last columns
// through the 4×2 and 4×1 tiles. Rows short of a full tile repeat the last
// real row and land in scratch, from where the real ones are copied.
func skinnyTransposedColumnsFloat32(lhs, rhs []float32, M, N, K, from, to int, output []float32, scratch *[8]float32) {
	lhsBase := unsafe.Pointer(unsafe.SliceData(lhs))
	rhsBase := unsafe.Pointer(unsafe.SliceData(rhs))
	outBase := unsafe.Pointer(unsafe.SliceData(output))
	const elem = 4
	lhsRow := func(r int) unsafe.Pointer { return unsafe.Add(lhsBase, min(r, M-1)*K*elem) }
	full := M / 4 * 4
	col := from
	for ; col+6 <= to; col += 6 {
		r0 := unsafe.Add(rhsBase, col*K*elem)
		r := 0
		for ; r+2 <= M; r += 2 {
			avx2SkinnyTile2x6Float32Asm(lhsRow(r), lhsRow(r+1), r0, K*elem, K,
				unsafe.Add(outBase, (r*N+col)*elem), unsafe.Add(outBase, ((r+1)*N+col)*elem))
		}
		if r < M { // one row left
			avx2SkinnyTile2x6Float32Asm(lhsRow(r), lhsRow(r), r0, K*elem, K,
				unsafe.Add(outBase, (r*N+col)*elem), unsafe.Pointer(&scratch[0]))
		}
	}
	for ; col+2 <= to; col += 2 {
		r0, r1 := unsafe.Add(rhsBase, col*K*elem), unsafe.Add(rhsBase, (col+1)*K*elem)
		for r := 0; r < full; r += 4 {
			avx2SmallTransposedTile4x2Float32Asm(lhsRow(r), lhsRow(r+1), lhsRow(r+2), lhsRow(r+3),
				r0, r1, K, unsafe.Add(outBase, (r*N+col)*elem), N*elem)
		}
		if full < M {
			avx2SmallTransposedTile4x2Float32Asm(lhsRow(full), lhsRow(full+1), lhsRow(full+2), lhsRow(full+3),
				r0, r1, K, unsafe.Pointer(&scratch[0]), 2*elem)
			for r := full; r < M; r++ {
				output[r*N+col] = scratch[(r-full)*2]
				output[r*N+col+1] = scratch[(r-full)*2+1]
			}
		}
	}
	if col < to {
		r0 := unsafe.Add(rhsBase, col*K*elem)
		for r := 0; r < full; r += 4 {
			avx2SmallTransposedTile4x1Float32Asm(lhsRow(r), lhsRow(r+1), lhsRow(r+2), lhsRow(r+3),
				r0, K, unsafe.Add(outBase, (r*N+col)*elem), N*elem)
		}
		if full < M {
			avx2SmallTransposedTile4x1Float32Asm(lhsRow(full), lhsRow(full+1), lhsRow(full+2), lhsRow(full+3),
				r0, K, unsafe.Pointer(&scratch[0]), elem)
			for r := full; r < M; r++ {
				output[r*N+col] = scratch[r-full]
			}
		}
	}
}
