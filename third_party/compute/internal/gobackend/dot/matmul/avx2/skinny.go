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
// step's linear layers, [B, D] × [D, F] with B a few dozen rows. The large
// path packs the whole rhs into panels on every call (a read and a write of
// every weight, then a second read), and the small path walks the whole rhs
// once per group of 4 lhs rows on one core. Here the rhs columns are cut into
// 16-wide strips shared out among the workers, and each strip meets every
// group of lhs rows while it is in cache: every weight is read from memory
// once, nothing is packed, and both cores work.
const (
	// skinnyMaxRows bounds the lhs rows of a skinny product: beyond it the
	// large path's packing pays for itself.
	skinnyMaxRows = 64
	// skinnyMinWork is the multiply-adds below which one core does it all.
	skinnyMinWork = 1 << 18
	// skinnyPackBytes bounds the strips a worker copies at a time: they stay
	// in L2 while every group of rows reads them.
	skinnyPackBytes = 128 << 10
)

// isSkinnyFloat32 says whether a non-transposed float32 product takes the
// skinny path: one batch item, 4 to skinnyMaxRows lhs rows, at least 64
// output columns, and enough work to share.
func isSkinnyFloat32(batchSize, lhsCrossSize, rhsCrossSize, contractingSize int) bool {
	return avx2SkinnyEnabled && batchSize == 1 && lhsCrossSize >= 4 && lhsCrossSize <= skinnyMaxRows &&
		rhsCrossSize >= 64 && lhsCrossSize*rhsCrossSize*contractingSize >= skinnyMinWork
}

// avx2SkinnyEnabled is false under GOMLX_GO_AVX2_SKINNY=false and in the
// benchmark that compares the skinny path with the others.
var avx2SkinnyEnabled = envutil.MustReadBool(envutil.GoBackendAVX2_Skinny, true)

// avx2SkinnyFloat32 computes output [M, N] = lhs [M, K] · rhs [K, N] (row
// major, one batch item) strip by strip: columns [16s, 16s+16) for every row,
// through the 4×16 tile (4×8 and scalar for the last columns). Rows beyond
// the last group of 4 repeat the last real row and write to a scratch tile.
func avx2SkinnyFloat32(backend *gobackend.Backend, lhs, rhs []float32, M, N, K int, output []float32) {
	// A worker takes a few strips at a time and copies them in one pass:
	// each rhs row then gives up 64·perItem contiguous bytes at once, which
	// the prefetchers stream better than one 64-byte line per row.
	perItem := max(1, min(8, skinnyPackBytes/(K*16*4)))
	strips := (N + 15) / 16
	items := (strips + perItem - 1) / perItem
	var next atomic.Int64
	work := func() {
		var scratch [4][16]float32
		packed := make([]float32, perItem*K*16)
		for {
			it := int(next.Add(1) - 1)
			if it >= items {
				return
			}
			from := it * perItem * 16
			to := min(N, from+perItem*16)
			skinnyColumnsFloat32(lhs, rhs, M, N, K, from, to, output, packed, &scratch)
		}
	}
	if backend == nil || backend.Workers == nil || backend.Workers.AdjustedMaxParallelism() <= 1 || items == 1 ||
		M*N*K < 2*skinnyMinWork {
		work()
		return
	}
	backend.Workers.Saturate(work)
}

// skinnyColumnsFloat32 computes output columns [from, to) of every row.
// The 16-wide strips of the rhs in that range are first copied into packed
// ([strip][K][16]): read in place, a strip's rows lie N floats apart, and
// for N a multiple of a large power of two they fall into a few cache sets
// and evict each other before the next group of rows reads them again.
func skinnyColumnsFloat32(lhs, rhs []float32, M, N, K, from, to int, output, packed []float32, scratch *[4][16]float32) {
	lhsBase := unsafe.Pointer(unsafe.SliceData(lhs))
	rhsBase := unsafe.Pointer(unsafe.SliceData(rhs))
	outBase := unsafe.Pointer(unsafe.SliceData(output))
	packBase := unsafe.Pointer(unsafe.SliceData(packed))
	const elem = 4
	rowStride := N * elem
	lhsRow := func(r int) unsafe.Pointer { return unsafe.Add(lhsBase, min(r, M-1)*K*elem) }
	outAt := func(r, col, slot int) unsafe.Pointer {
		if r >= M {
			return unsafe.Pointer(&scratch[slot][0])
		}
		return unsafe.Add(outBase, (r*N+col)*elem)
	}
	full := (to - from) / 16
	if full > 0 {
		avx2PackRHSFullStripsAsm(unsafe.Add(rhsBase, from*elem), packBase, uintptr(rowStride), K, full, 16*elem)
	}
	col := from
	for s := range full {
		strip := unsafe.Add(packBase, s*K*16*elem)
		for r := 0; r < M; r += 4 {
			avx2SmallNonTransposedTile4x16Float32Asm(lhsRow(r), lhsRow(r+1), lhsRow(r+2), lhsRow(r+3),
				strip, K, 16*elem,
				outAt(r, col, 0), outAt(r+1, col, 1), outAt(r+2, col, 2), outAt(r+3, col, 3))
		}
		col += 16
	}
	for ; col+8 <= to; col += 8 {
		rhsCol := unsafe.Add(rhsBase, col*elem)
		for r := 0; r < M; r += 4 {
			avx2SmallNonTransposedTile4x8Float32Asm(lhsRow(r), lhsRow(r+1), lhsRow(r+2), lhsRow(r+3),
				rhsCol, K, rowStride,
				outAt(r, col, 0), outAt(r+1, col, 1), outAt(r+2, col, 2), outAt(r+3, col, 3))
		}
	}
	for ; col < to; col++ {
		for r := range M {
			var s float32
			for k := range K {
				s += lhs[r*K+k] * rhs[k*N+col]
			}
			output[r*N+col] = s
		}
	}
}

// isSkinnyTransposedFloat32 says whether a transposed float32 product (rhs
// [N, K], PyTorch's [out, in] weights) takes the skinny path: the same
// shapes as isSkinnyFloat32, and K a multiple of 8 so that the tiles'
// vector loop covers it.
func isSkinnyTransposedFloat32(batchSize, lhsCrossSize, rhsCrossSize, contractingSize int) bool {
	return isSkinnyFloat32(batchSize, lhsCrossSize, rhsCrossSize, contractingSize) && contractingSize%8 == 0
}

// skinnyTransposedColsPerItem is how many output columns a worker takes at
// a time on the transposed skinny path.
const skinnyTransposedColsPerItem = 32

// avx2SkinnyTransposedFloat32 computes output [M, N] = lhs [M, K] · rhsᵀ
// with rhs [N, K] row major: every output column is a dot product of an lhs
// row with one rhs row, so the rhs is read front to back, sequentially,
// once, each pair of its rows meeting every group of 4 lhs rows (the 4×2
// tile) while in L1. Columns are shared out among the workers.
func avx2SkinnyTransposedFloat32(backend *gobackend.Backend, lhs, rhs []float32, M, N, K int, output []float32) {
	items := (N + skinnyTransposedColsPerItem - 1) / skinnyTransposedColsPerItem
	var next atomic.Int64
	work := func() {
		var scratch [4 * 2]float32
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
// row. The last rows, short of a group of 4, repeat the last real row and
// land in scratch, from where the real ones are copied.
func skinnyTransposedColumnsFloat32(lhs, rhs []float32, M, N, K, from, to int, output []float32, scratch *[4 * 2]float32) {
	lhsBase := unsafe.Pointer(unsafe.SliceData(lhs))
	rhsBase := unsafe.Pointer(unsafe.SliceData(rhs))
	outBase := unsafe.Pointer(unsafe.SliceData(output))
	const elem = 4
	lhsRow := func(r int) unsafe.Pointer { return unsafe.Add(lhsBase, min(r, M-1)*K*elem) }
	full := M / 4 * 4
	col := from
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
