// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package avx512

import (
	"simd/archsimd"
	"unsafe"

	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/internal/gobackend/dot"
	//alt:bf16 "github.com/gomlx/compute/dtypes/bfloat16"
	//alt:f16 "github.com/gomlx/compute/dtypes/float16"
)

// avx512SmallFloat32Parallel implements a parallelized version of the AVX512 small matrix
// multiplication.
func avx512SmallFloat32Parallel( //alt:f32
	//alt:bf16 func avx512SmallBFloat16Parallel(
	//alt:f16 func avx512SmallFloat16Parallel(
	//alt:f64 func avx512SmallFloat64Parallel(
	backend *gobackend.Backend,
	layout dot.Layout,
	lhs, rhs []float32, //alt:f32
	//alt:bf16 lhs, rhs []bfloat16.BFloat16,
	//alt:f16 lhs, rhs []float16.Float16,
	//alt:f64 lhs, rhs []float64,
	batchSize, lhsCrossSize, rhsCrossSize, contractingSize int,
	output []float32) { //alt:f32|bf16|f16
	//alt:f64 output []float64) {

	// Split work by batch items.
	// For small matrices, we only parallelize along the batch dimension if it's large enough.
	maxWorkers := 1
	if backend.Workers != nil {
		maxWorkers = backend.Workers.AdjustedMaxParallelism()
	}

	if maxWorkers > 1 && batchSize == 1 && splitRowsWorthIt(lhsCrossSize, rhsCrossSize, contractingSize) { //alt:f32
		avx512SmallFloat32SplitRows(backend, layout, lhs, rhs, lhsCrossSize, rhsCrossSize, contractingSize, output, maxWorkers) //alt:f32
		return                                                                                                                  //alt:f32
	} //alt:f32
	if maxWorkers <= 1 || batchSize <= 1 {
		if layout == dot.LayoutNonTransposed {
			avx512SmallFloat32( //alt:f32
				//alt:bf16 avx512SmallBFloat16(
				//alt:f16 avx512SmallFloat16(
				//alt:f64 avx512SmallFloat64(
				lhs, rhs, 0, batchSize, lhsCrossSize, rhsCrossSize, contractingSize, output)
		} else {
			avx512SmallFloat32Transposed( //alt:f32
				//alt:bf16 avx512SmallBFloat16Transposed(
				//alt:f16 avx512SmallFloat16Transposed(
				//alt:f64 avx512SmallFloat64Transposed(
				lhs, rhs, 0, batchSize, lhsCrossSize, rhsCrossSize, contractingSize, output)
		}
		return
	}

	type chunkData struct {
		batchIdx, batchCount int
	}
	numChunks := min(batchSize, maxWorkers*2)
	batchPerChunk := (batchSize + numChunks - 1) / numChunks
	work := make(chan chunkData, numChunks)
	for batchIdx := 0; batchIdx < batchSize; batchIdx += batchPerChunk {
		count := min(batchPerChunk, batchSize-batchIdx)
		work <- chunkData{batchIdx, count}
	}
	close(work)

	backend.Workers.Saturate(func() {
		for chunk := range work {
			if layout == dot.LayoutNonTransposed {
				avx512SmallFloat32( //alt:f32
					//alt:bf16 avx512SmallBFloat16(
					//alt:f16 avx512SmallFloat16(
					//alt:f64 avx512SmallFloat64(
					lhs, rhs, chunk.batchIdx, chunk.batchCount, lhsCrossSize, rhsCrossSize, contractingSize, output)
			} else {
				avx512SmallFloat32Transposed( //alt:f32
					//alt:bf16 avx512SmallBFloat16Transposed(
					//alt:f16 avx512SmallFloat16Transposed(
					//alt:f64 avx512SmallFloat64Transposed(
					lhs, rhs, chunk.batchIdx, chunk.batchCount, lhsCrossSize, rhsCrossSize, contractingSize, output)
			}
		}
	})
}

// avx512SmallFloat32 implements an AVX512 matrix multiplication for small inputs,
// without data packing. It vectorizes the contracting dimension.
// Layout is dot.LayoutNonTransposed.
func avx512SmallFloat32( //alt:f32
	//alt:bf16 func avx512SmallBFloat16(
	//alt:f16 func avx512SmallFloat16(
	//alt:f64 func avx512SmallFloat64(
	lhs, rhs []float32, //alt:f32
	//alt:bf16 lhs, rhs []bfloat16.BFloat16,
	//alt:f16 lhs, rhs []float16.Float16,
	//alt:f64 lhs, rhs []float64,
	batchStart, batchCount, lhsCrossSize, rhsCrossSize, contractingSize int,
	output []float32) { //alt:f32|bf16|f16
	//alt:f64 output []float64) {

	if batchCount == 0 || lhsCrossSize == 0 || rhsCrossSize == 0 || contractingSize == 0 {
		return
	}

	{ //alt:f32|bf16|f16|f64
		if AVX512UseAsm { //alt:f32|bf16|f16|f64
			avx512SmallFloat32NonTransposedAsm(lhs, rhs, batchStart, batchCount, lhsCrossSize, rhsCrossSize, contractingSize, output) //alt:f32
			//alt:bf16 avx512SmallBFloat16NonTransposedAsm(lhs, rhs, batchStart, batchCount, lhsCrossSize, rhsCrossSize, contractingSize, output)
			//alt:f16 avx512SmallFloat16NonTransposedAsm(lhs, rhs, batchStart, batchCount, lhsCrossSize, rhsCrossSize, contractingSize, output)
			//alt:f64 avx512SmallFloat64NonTransposedAsm(lhs, rhs, batchStart, batchCount, lhsCrossSize, rhsCrossSize, contractingSize, output)
			return //alt:f32|bf16|f16|f64
		} //alt:f32|bf16|f16|f64
	} //alt:f32|bf16|f16|f64

	lhsStride := lhsCrossSize * contractingSize
	rhsStride := contractingSize * rhsCrossSize
	outputStride := lhsCrossSize * rhsCrossSize

	var iZero float32 //alt:f32
	//alt:bf16 var iZero bfloat16.BFloat16
	//alt:f16 var iZero float16.Float16
	//alt:f64 var iZero float64
	iSize := unsafe.Sizeof(iZero)
	var oZero float32 //alt:f32|bf16|f16
	//alt:f64 var oZero float64
	oSize := unsafe.Sizeof(oZero)

	lhsPtr := uintptr(unsafe.Pointer(unsafe.SliceData(lhs)))
	rhsPtr := uintptr(unsafe.Pointer(unsafe.SliceData(rhs)))
	outputPtr := uintptr(unsafe.Pointer(unsafe.SliceData(output)))

	lhsByteStride := uintptr(lhsStride) * iSize
	rhsByteStride := uintptr(rhsStride) * iSize
	outputByteStride := uintptr(outputStride) * oSize

	lhsBase := lhsPtr + uintptr(batchStart)*lhsByteStride
	rhsBase := rhsPtr + uintptr(batchStart)*rhsByteStride
	outputBase := outputPtr + uintptr(batchStart)*outputByteStride

	for range batchCount {
		row := 0
		for ; row+3 < lhsCrossSize; row += 4 {
			for k := 0; k < contractingSize; k++ {
				l0_ptr := lhsBase + uintptr((row+0)*contractingSize+k)*iSize
				l1_ptr := lhsBase + uintptr((row+1)*contractingSize+k)*iSize
				l2_ptr := lhsBase + uintptr((row+2)*contractingSize+k)*iSize
				l3_ptr := lhsBase + uintptr((row+3)*contractingSize+k)*iSize

				l0 := archsimd.BroadcastFloat32x16(*(*float32)(unsafe.Pointer(l0_ptr))) //alt:f32
				//alt:bf16 l0_bf16 := (*(*bfloat16.BFloat16)(unsafe.Pointer(l0_ptr))).Float32()
				//alt:bf16 l0 := archsimd.BroadcastFloat32x16(l0_bf16)
				//alt:f16 l0_f16 := (*(*float16.Float16)(unsafe.Pointer(l0_ptr))).Float32()
				//alt:f16 l0 := archsimd.BroadcastFloat32x16(l0_f16)
				//alt:f64 l0 := archsimd.BroadcastFloat64x8(*(*float64)(unsafe.Pointer(l0_ptr)))

				l1 := archsimd.BroadcastFloat32x16(*(*float32)(unsafe.Pointer(l1_ptr))) //alt:f32
				//alt:bf16 l1_bf16 := (*(*bfloat16.BFloat16)(unsafe.Pointer(l1_ptr))).Float32()
				//alt:bf16 l1 := archsimd.BroadcastFloat32x16(l1_bf16)
				//alt:f16 l1_f16 := (*(*float16.Float16)(unsafe.Pointer(l1_ptr))).Float32()
				//alt:f16 l1 := archsimd.BroadcastFloat32x16(l1_f16)
				//alt:f64 l1 := archsimd.BroadcastFloat64x8(*(*float64)(unsafe.Pointer(l1_ptr)))

				l2 := archsimd.BroadcastFloat32x16(*(*float32)(unsafe.Pointer(l2_ptr))) //alt:f32
				//alt:bf16 l2_bf16 := (*(*bfloat16.BFloat16)(unsafe.Pointer(l2_ptr))).Float32()
				//alt:bf16 l2 := archsimd.BroadcastFloat32x16(l2_bf16)
				//alt:f16 l2_f16 := (*(*float16.Float16)(unsafe.Pointer(l2_ptr))).Float32()
				//alt:f16 l2 := archsimd.BroadcastFloat32x16(l2_f16)
				//alt:f64 l2 := archsimd.BroadcastFloat64x8(*(*float64)(unsafe.Pointer(l2_ptr)))

				l3 := archsimd.BroadcastFloat32x16(*(*float32)(unsafe.Pointer(l3_ptr))) //alt:f32
				//alt:bf16 l3_bf16 := (*(*bfloat16.BFloat16)(unsafe.Pointer(l3_ptr))).Float32()
				//alt:bf16 l3 := archsimd.BroadcastFloat32x16(l3_bf16)
				//alt:f16 l3_f16 := (*(*float16.Float16)(unsafe.Pointer(l3_ptr))).Float32()
				//alt:f16 l3 := archsimd.BroadcastFloat32x16(l3_f16)
				//alt:f64 l3 := archsimd.BroadcastFloat64x8(*(*float64)(unsafe.Pointer(l3_ptr)))

				rColBase := rhsBase + uintptr(k*rhsCrossSize)*iSize
				const inputVecWidth = 16 //alt:f32
				//alt:bf16 const inputVecWidth = 32
				//alt:f16 const inputVecWidth = 32
				//alt:f64 const inputVecWidth = 8

				const outputVecWidth = 16 //alt:f32|bf16|f16
				//alt:f64 const outputVecWidth = 8

				col := 0
				for ; col+2*outputVecWidth <= rhsCrossSize; col += 2 * outputVecWidth {
					var r0, r1 archsimd.Float32x16 //alt:f32|bf16|f16
					//alt:f64 var r0, r1 archsimd.Float64x8
					{ //alt:f32|bf16|f16|f64
						r0 = archsimd.LoadFloat32x16Array((*[16]float32)(unsafe.Pointer(rColBase + uintptr(col)*iSize)))                //alt:f32
						r1 = archsimd.LoadFloat32x16Array((*[16]float32)(unsafe.Pointer(rColBase + uintptr(col+outputVecWidth)*iSize))) //alt:f32
						//alt:bf16 r0_bf16 := bfloat16.LoadBFloat16x32((*[32]bfloat16.BFloat16)(unsafe.Pointer(rColBase + uintptr(col)*iSize)))
						//alt:bf16 r0, r1 = r0_bf16.ToFloat32()
						//alt:f16 r0_f16 := float16.LoadFloat16x32((*[32]float16.Float16)(unsafe.Pointer(rColBase + uintptr(col)*iSize)))
						//alt:f16 r0, r1 = r0_f16.ToFloat32()
						//alt:f64 r0 = archsimd.LoadFloat64x8Array((*[8]float64)(unsafe.Pointer(rColBase + uintptr(col)*iSize)))
						//alt:f64 r1 = archsimd.LoadFloat64x8Array((*[8]float64)(unsafe.Pointer(rColBase + uintptr(col+outputVecWidth)*iSize)))
					} //alt:f32|bf16|f16|f64

					outBase0 := outputBase + uintptr((row+0)*rhsCrossSize+col)*oSize
					outBase1 := outputBase + uintptr((row+1)*rhsCrossSize+col)*oSize
					outBase2 := outputBase + uintptr((row+2)*rhsCrossSize+col)*oSize
					outBase3 := outputBase + uintptr((row+3)*rhsCrossSize+col)*oSize

					var o0_0, o0_1, o1_0, o1_1, o2_0, o2_1, o3_0, o3_1 archsimd.Float32x16 //alt:f32|bf16|f16
					//alt:f64 var o0_0, o0_1, o1_0, o1_1, o2_0, o2_1, o3_0, o3_1 archsimd.Float64x8

					if k > 0 {
						o0_0 = archsimd.LoadFloat32x16Array((*[16]float32)(unsafe.Pointer(outBase0)))                                 //alt:f32|bf16|f16
						o0_1 = archsimd.LoadFloat32x16Array((*[16]float32)(unsafe.Pointer(outBase0 + uintptr(outputVecWidth)*oSize))) //alt:f32|bf16|f16
						o1_0 = archsimd.LoadFloat32x16Array((*[16]float32)(unsafe.Pointer(outBase1)))                                 //alt:f32|bf16|f16
						o1_1 = archsimd.LoadFloat32x16Array((*[16]float32)(unsafe.Pointer(outBase1 + uintptr(outputVecWidth)*oSize))) //alt:f32|bf16|f16
						o2_0 = archsimd.LoadFloat32x16Array((*[16]float32)(unsafe.Pointer(outBase2)))                                 //alt:f32|bf16|f16
						o2_1 = archsimd.LoadFloat32x16Array((*[16]float32)(unsafe.Pointer(outBase2 + uintptr(outputVecWidth)*oSize))) //alt:f32|bf16|f16
						o3_0 = archsimd.LoadFloat32x16Array((*[16]float32)(unsafe.Pointer(outBase3)))                                 //alt:f32|bf16|f16
						o3_1 = archsimd.LoadFloat32x16Array((*[16]float32)(unsafe.Pointer(outBase3 + uintptr(outputVecWidth)*oSize))) //alt:f32|bf16|f16
						//alt:f64 o0_0 = archsimd.LoadFloat64x8Array((*[8]float64)(unsafe.Pointer(outBase0)))
						//alt:f64 o0_1 = archsimd.LoadFloat64x8Array((*[8]float64)(unsafe.Pointer(outBase0 + uintptr(outputVecWidth)*oSize)))
						//alt:f64 o1_0 = archsimd.LoadFloat64x8Array((*[8]float64)(unsafe.Pointer(outBase1)))
						//alt:f64 o1_1 = archsimd.LoadFloat64x8Array((*[8]float64)(unsafe.Pointer(outBase1 + uintptr(outputVecWidth)*oSize)))
						//alt:f64 o2_0 = archsimd.LoadFloat64x8Array((*[8]float64)(unsafe.Pointer(outBase2)))
						//alt:f64 o2_1 = archsimd.LoadFloat64x8Array((*[8]float64)(unsafe.Pointer(outBase2 + uintptr(outputVecWidth)*oSize)))
						//alt:f64 o3_0 = archsimd.LoadFloat64x8Array((*[8]float64)(unsafe.Pointer(outBase3)))
						//alt:f64 o3_1 = archsimd.LoadFloat64x8Array((*[8]float64)(unsafe.Pointer(outBase3 + uintptr(outputVecWidth)*oSize)))
					} else {
						zero := archsimd.BroadcastFloat32x16(0.0) //alt:f32|bf16|f16
						//alt:f64 zero := archsimd.BroadcastFloat64x8(0.0)
						o0_0, o0_1 = zero, zero //alt:f32|bf16|f16|f64
						o1_0, o1_1 = zero, zero //alt:f32|bf16|f16|f64
						o2_0, o2_1 = zero, zero //alt:f32|bf16|f16|f64
						o3_0, o3_1 = zero, zero //alt:f32|bf16|f16|f64
					}

					o0_0 = l0.MulAdd(r0, o0_0) //alt:f32|bf16|f16|f64
					o0_1 = l0.MulAdd(r1, o0_1) //alt:f32|bf16|f16|f64
					o1_0 = l1.MulAdd(r0, o1_0) //alt:f32|bf16|f16|f64
					o1_1 = l1.MulAdd(r1, o1_1) //alt:f32|bf16|f16|f64
					o2_0 = l2.MulAdd(r0, o2_0) //alt:f32|bf16|f16|f64
					o2_1 = l2.MulAdd(r1, o2_1) //alt:f32|bf16|f16|f64
					o3_0 = l3.MulAdd(r0, o3_0) //alt:f32|bf16|f16|f64
					o3_1 = l3.MulAdd(r1, o3_1) //alt:f32|bf16|f16|f64

					o0_0.StoreArray((*[16]float32)(unsafe.Pointer(outBase0)))                                 //alt:f32|bf16|f16
					o0_1.StoreArray((*[16]float32)(unsafe.Pointer(outBase0 + uintptr(outputVecWidth)*oSize))) //alt:f32|bf16|f16
					o1_0.StoreArray((*[16]float32)(unsafe.Pointer(outBase1)))                                 //alt:f32|bf16|f16
					o1_1.StoreArray((*[16]float32)(unsafe.Pointer(outBase1 + uintptr(outputVecWidth)*oSize))) //alt:f32|bf16|f16
					o2_0.StoreArray((*[16]float32)(unsafe.Pointer(outBase2)))                                 //alt:f32|bf16|f16
					o2_1.StoreArray((*[16]float32)(unsafe.Pointer(outBase2 + uintptr(outputVecWidth)*oSize))) //alt:f32|bf16|f16
					o3_0.StoreArray((*[16]float32)(unsafe.Pointer(outBase3)))                                 //alt:f32|bf16|f16
					o3_1.StoreArray((*[16]float32)(unsafe.Pointer(outBase3 + uintptr(outputVecWidth)*oSize))) //alt:f32|bf16|f16
					//alt:f64 o0_0.StoreArray((*[8]float64)(unsafe.Pointer(outBase0)))
					//alt:f64 o0_1.StoreArray((*[8]float64)(unsafe.Pointer(outBase0 + uintptr(outputVecWidth)*oSize)))
					//alt:f64 o1_0.StoreArray((*[8]float64)(unsafe.Pointer(outBase1)))
					//alt:f64 o1_1.StoreArray((*[8]float64)(unsafe.Pointer(outBase1 + uintptr(outputVecWidth)*oSize)))
					//alt:f64 o2_0.StoreArray((*[8]float64)(unsafe.Pointer(outBase2)))
					//alt:f64 o2_1.StoreArray((*[8]float64)(unsafe.Pointer(outBase2 + uintptr(outputVecWidth)*oSize)))
					//alt:f64 o3_0.StoreArray((*[8]float64)(unsafe.Pointer(outBase3)))
					//alt:f64 o3_1.StoreArray((*[8]float64)(unsafe.Pointer(outBase3 + uintptr(outputVecWidth)*oSize)))
				}

				for ; col+outputVecWidth <= rhsCrossSize; col += outputVecWidth { //alt:f32
					//alt:f64 for ; col+outputVecWidth <= rhsCrossSize; col += outputVecWidth {
					var r0 archsimd.Float32x16 //alt:f32
					//alt:f64 var r0 archsimd.Float64x8
					{ //alt:f32|f64
						r0 = archsimd.LoadFloat32x16Array((*[16]float32)(unsafe.Pointer(rColBase + uintptr(col)*iSize))) //alt:f32
						//alt:f64 r0 = archsimd.LoadFloat64x8Array((*[8]float64)(unsafe.Pointer(rColBase + uintptr(col)*iSize)))
					} //alt:f32|f64

					outBase0 := outputBase + uintptr((row+0)*rhsCrossSize+col)*oSize //alt:f32|f64
					outBase1 := outputBase + uintptr((row+1)*rhsCrossSize+col)*oSize //alt:f32|f64
					outBase2 := outputBase + uintptr((row+2)*rhsCrossSize+col)*oSize //alt:f32|f64
					outBase3 := outputBase + uintptr((row+3)*rhsCrossSize+col)*oSize //alt:f32|f64

					var o0_0, o1_0, o2_0, o3_0 archsimd.Float32x16 //alt:f32
					//alt:f64 var o0_0, o1_0, o2_0, o3_0 archsimd.Float64x8

					if k > 0 { //alt:f32|f64
						o0_0 = archsimd.LoadFloat32x16Array((*[16]float32)(unsafe.Pointer(outBase0))) //alt:f32
						o1_0 = archsimd.LoadFloat32x16Array((*[16]float32)(unsafe.Pointer(outBase1))) //alt:f32
						o2_0 = archsimd.LoadFloat32x16Array((*[16]float32)(unsafe.Pointer(outBase2))) //alt:f32
						o3_0 = archsimd.LoadFloat32x16Array((*[16]float32)(unsafe.Pointer(outBase3))) //alt:f32
						//alt:f64 o0_0 = archsimd.LoadFloat64x8Array((*[8]float64)(unsafe.Pointer(outBase0)))
						//alt:f64 o1_0 = archsimd.LoadFloat64x8Array((*[8]float64)(unsafe.Pointer(outBase1)))
						//alt:f64 o2_0 = archsimd.LoadFloat64x8Array((*[8]float64)(unsafe.Pointer(outBase2)))
						//alt:f64 o3_0 = archsimd.LoadFloat64x8Array((*[8]float64)(unsafe.Pointer(outBase3)))
					} else { //alt:f32|f64
						zero := archsimd.BroadcastFloat32x16(0.0) //alt:f32
						//alt:f64 zero := archsimd.BroadcastFloat64x8(0.0)
						o0_0 = zero //alt:f32|f64
						o1_0 = zero //alt:f32|f64
						o2_0 = zero //alt:f32|f64
						o3_0 = zero //alt:f32|f64
					} //alt:f32|f64

					o0_0 = l0.MulAdd(r0, o0_0) //alt:f32|f64
					o1_0 = l1.MulAdd(r0, o1_0) //alt:f32|f64
					o2_0 = l2.MulAdd(r0, o2_0) //alt:f32|f64
					o3_0 = l3.MulAdd(r0, o3_0) //alt:f32|f64

					o0_0.StoreArray((*[16]float32)(unsafe.Pointer(outBase0))) //alt:f32
					o1_0.StoreArray((*[16]float32)(unsafe.Pointer(outBase1))) //alt:f32
					o2_0.StoreArray((*[16]float32)(unsafe.Pointer(outBase2))) //alt:f32
					o3_0.StoreArray((*[16]float32)(unsafe.Pointer(outBase3))) //alt:f32
					//alt:f64 o0_0.StoreArray((*[8]float64)(unsafe.Pointer(outBase0)))
					//alt:f64 o1_0.StoreArray((*[8]float64)(unsafe.Pointer(outBase1)))
					//alt:f64 o2_0.StoreArray((*[8]float64)(unsafe.Pointer(outBase2)))
					//alt:f64 o3_0.StoreArray((*[8]float64)(unsafe.Pointer(outBase3)))
				} //alt:f32|f64

				for ; col < rhsCrossSize; col++ {
					r0 := *(*float32)(unsafe.Pointer(rColBase + uintptr(col)*iSize)) //alt:f32
					//alt:bf16 r0 := (*(*bfloat16.BFloat16)(unsafe.Pointer(rColBase + uintptr(col)*iSize))).Float32()
					//alt:f16 r0 := (*(*float16.Float16)(unsafe.Pointer(rColBase + uintptr(col)*iSize))).Float32()
					//alt:f64 r0 := *(*float64)(unsafe.Pointer(rColBase + uintptr(col)*iSize))

					l0_scalar := *(*float32)(unsafe.Pointer(l0_ptr)) //alt:f32
					l1_scalar := *(*float32)(unsafe.Pointer(l1_ptr)) //alt:f32
					l2_scalar := *(*float32)(unsafe.Pointer(l2_ptr)) //alt:f32
					l3_scalar := *(*float32)(unsafe.Pointer(l3_ptr)) //alt:f32
					//alt:bf16 l0_scalar := (*(*bfloat16.BFloat16)(unsafe.Pointer(l0_ptr))).Float32()
					//alt:bf16 l1_scalar := (*(*bfloat16.BFloat16)(unsafe.Pointer(l1_ptr))).Float32()
					//alt:bf16 l2_scalar := (*(*bfloat16.BFloat16)(unsafe.Pointer(l2_ptr))).Float32()
					//alt:bf16 l3_scalar := (*(*bfloat16.BFloat16)(unsafe.Pointer(l3_ptr))).Float32()
					//alt:f16 l0_scalar := (*(*float16.Float16)(unsafe.Pointer(l0_ptr))).Float32()
					//alt:f16 l1_scalar := (*(*float16.Float16)(unsafe.Pointer(l1_ptr))).Float32()
					//alt:f16 l2_scalar := (*(*float16.Float16)(unsafe.Pointer(l2_ptr))).Float32()
					//alt:f16 l3_scalar := (*(*float16.Float16)(unsafe.Pointer(l3_ptr))).Float32()
					//alt:f64 l0_scalar := *(*float64)(unsafe.Pointer(l0_ptr))
					//alt:f64 l1_scalar := *(*float64)(unsafe.Pointer(l1_ptr))
					//alt:f64 l2_scalar := *(*float64)(unsafe.Pointer(l2_ptr))
					//alt:f64 l3_scalar := *(*float64)(unsafe.Pointer(l3_ptr))

					outBase0 := outputBase + uintptr((row+0)*rhsCrossSize+col)*oSize
					outBase1 := outputBase + uintptr((row+1)*rhsCrossSize+col)*oSize
					outBase2 := outputBase + uintptr((row+2)*rhsCrossSize+col)*oSize
					outBase3 := outputBase + uintptr((row+3)*rhsCrossSize+col)*oSize

					if k == 0 {
						*(*float32)(unsafe.Pointer(outBase0)) = l0_scalar * r0 //alt:f32|bf16|f16
						*(*float32)(unsafe.Pointer(outBase1)) = l1_scalar * r0 //alt:f32|bf16|f16
						*(*float32)(unsafe.Pointer(outBase2)) = l2_scalar * r0 //alt:f32|bf16|f16
						*(*float32)(unsafe.Pointer(outBase3)) = l3_scalar * r0 //alt:f32|bf16|f16
						//alt:f64 *(*float64)(unsafe.Pointer(outBase0)) = l0_scalar * r0
						//alt:f64 *(*float64)(unsafe.Pointer(outBase1)) = l1_scalar * r0
						//alt:f64 *(*float64)(unsafe.Pointer(outBase2)) = l2_scalar * r0
						//alt:f64 *(*float64)(unsafe.Pointer(outBase3)) = l3_scalar * r0
					} else {
						*(*float32)(unsafe.Pointer(outBase0)) += l0_scalar * r0 //alt:f32|bf16|f16
						*(*float32)(unsafe.Pointer(outBase1)) += l1_scalar * r0 //alt:f32|bf16|f16
						*(*float32)(unsafe.Pointer(outBase2)) += l2_scalar * r0 //alt:f32|bf16|f16
						*(*float32)(unsafe.Pointer(outBase3)) += l3_scalar * r0 //alt:f32|bf16|f16
						//alt:f64 *(*float64)(unsafe.Pointer(outBase0)) += l0_scalar * r0
						//alt:f64 *(*float64)(unsafe.Pointer(outBase1)) += l1_scalar * r0
						//alt:f64 *(*float64)(unsafe.Pointer(outBase2)) += l2_scalar * r0
						//alt:f64 *(*float64)(unsafe.Pointer(outBase3)) += l3_scalar * r0
					}
				}
			}
		}

		for ; row < lhsCrossSize; row++ {
			for k := 0; k < contractingSize; k++ {
				l_ptr := lhsBase + uintptr((row*contractingSize)+k)*iSize
				l0 := archsimd.BroadcastFloat32x16(*(*float32)(unsafe.Pointer(l_ptr))) //alt:f32
				//alt:bf16 l0_bf16 := (*(*bfloat16.BFloat16)(unsafe.Pointer(l_ptr))).Float32()
				//alt:bf16 l0 := archsimd.BroadcastFloat32x16(l0_bf16)
				//alt:f16 l0_f16 := (*(*float16.Float16)(unsafe.Pointer(l_ptr))).Float32()
				//alt:f16 l0 := archsimd.BroadcastFloat32x16(l0_f16)
				//alt:f64 l0 := archsimd.BroadcastFloat64x8(*(*float64)(unsafe.Pointer(l_ptr)))

				rColBase := rhsBase + uintptr(k*rhsCrossSize)*iSize
				const inputVecWidth = 16 //alt:f32
				//alt:bf16 const inputVecWidth = 32
				//alt:f16 const inputVecWidth = 32
				//alt:f64 const inputVecWidth = 8

				const outputVecWidth = 16 //alt:f32|bf16|f16
				//alt:f64 const outputVecWidth = 8

				col := 0
				for ; col+inputVecWidth <= rhsCrossSize; col += inputVecWidth {
					var r0 archsimd.Float32x16 //alt:f32|bf16|f16
					//alt:f64 var r0 archsimd.Float64x8
					//alt:bf16 var r1 archsimd.Float32x16
					//alt:f16 var r1 archsimd.Float32x16
					{ //alt:f32|bf16|f16|f64
						r0 = archsimd.LoadFloat32x16Array((*[16]float32)(unsafe.Pointer(rColBase + uintptr(col)*iSize))) //alt:f32
						//alt:bf16 r0_bf16 := bfloat16.LoadBFloat16x32((*[32]bfloat16.BFloat16)(unsafe.Pointer(rColBase + uintptr(col)*iSize)))
						//alt:bf16 r0, r1 = r0_bf16.ToFloat32()
						//alt:f16 r0_f16 := float16.LoadFloat16x32((*[32]float16.Float16)(unsafe.Pointer(rColBase + uintptr(col)*iSize)))
						//alt:f16 r0, r1 = r0_f16.ToFloat32()
						//alt:f64 r0 = archsimd.LoadFloat64x8Array((*[8]float64)(unsafe.Pointer(rColBase + uintptr(col)*iSize)))
					} //alt:f32|bf16|f16|f64

					outBase := outputBase + uintptr(row*rhsCrossSize+col)*oSize
					var o0 archsimd.Float32x16 //alt:f32|bf16|f16
					//alt:f64 var o0 archsimd.Float64x8
					//alt:bf16 var o1 archsimd.Float32x16
					//alt:f16 var o1 archsimd.Float32x16

					if k > 0 {
						o0 = archsimd.LoadFloat32x16Array((*[16]float32)(unsafe.Pointer(outBase))) //alt:f32|bf16|f16
						//alt:f64 o0 = archsimd.LoadFloat64x8Array((*[8]float64)(unsafe.Pointer(outBase)))
						//alt:bf16 o1 = archsimd.LoadFloat32x16Array((*[16]float32)(unsafe.Pointer(outBase + uintptr(outputVecWidth)*oSize)))
						//alt:f16 o1 = archsimd.LoadFloat32x16Array((*[16]float32)(unsafe.Pointer(outBase + uintptr(outputVecWidth)*oSize)))
					} else {
						o0 = archsimd.BroadcastFloat32x16(0.0) //alt:f32|bf16|f16
						//alt:f64 o0 = archsimd.BroadcastFloat64x8(0.0)
						//alt:bf16 o1 = archsimd.BroadcastFloat32x16(0.0)
						//alt:f16 o1 = archsimd.BroadcastFloat32x16(0.0)
					}

					o0 = l0.MulAdd(r0, o0) //alt:f32|bf16|f16|f64
					//alt:bf16 o1 = l0.MulAdd(r1, o1)
					//alt:f16 o1 = l0.MulAdd(r1, o1)

					o0.StoreArray((*[16]float32)(unsafe.Pointer(outBase))) //alt:f32|bf16|f16
					//alt:f64 o0.StoreArray((*[8]float64)(unsafe.Pointer(outBase)))
					//alt:bf16 o1.StoreArray((*[16]float32)(unsafe.Pointer(outBase + uintptr(outputVecWidth)*oSize)))
					//alt:f16 o1.StoreArray((*[16]float32)(unsafe.Pointer(outBase + uintptr(outputVecWidth)*oSize)))
				}

				for ; col < rhsCrossSize; col++ {
					r0 := *(*float32)(unsafe.Pointer(rColBase + uintptr(col)*iSize)) //alt:f32
					//alt:bf16 r0 := (*(*bfloat16.BFloat16)(unsafe.Pointer(rColBase + uintptr(col)*iSize))).Float32()
					//alt:f16 r0 := (*(*float16.Float16)(unsafe.Pointer(rColBase + uintptr(col)*iSize))).Float32()
					//alt:f64 r0 := *(*float64)(unsafe.Pointer(rColBase + uintptr(col)*iSize))

					l0_scalar := *(*float32)(unsafe.Pointer(l_ptr)) //alt:f32
					//alt:bf16 l0_scalar := (*(*bfloat16.BFloat16)(unsafe.Pointer(l_ptr))).Float32()
					//alt:f16 l0_scalar := (*(*float16.Float16)(unsafe.Pointer(l_ptr))).Float32()
					//alt:f64 l0_scalar := *(*float64)(unsafe.Pointer(l_ptr))

					outBase := outputBase + uintptr(row*rhsCrossSize+col)*oSize
					if k == 0 {
						*(*float32)(unsafe.Pointer(outBase)) = l0_scalar * r0 //alt:f32|bf16|f16
						//alt:f64 *(*float64)(unsafe.Pointer(outBase)) = l0_scalar * r0
					} else {
						*(*float32)(unsafe.Pointer(outBase)) += l0_scalar * r0 //alt:f32|bf16|f16
						//alt:f64 *(*float64)(unsafe.Pointer(outBase)) += l0_scalar * r0
					}
				}
			}
		}

		lhsBase += lhsByteStride
		rhsBase += rhsByteStride
		outputBase += outputByteStride
	}
}

// avx512SmallFloat32Transposed implements an AVX512 matrix multiplication for small inputs,
// without data packing. It vectorizes the contracting dimension.
// Layout is dot.LayoutTransposed.
func avx512SmallFloat32Transposed( //alt:f32
	//alt:bf16 func avx512SmallBFloat16Transposed(
	//alt:f16 func avx512SmallFloat16Transposed(
	//alt:f64 func avx512SmallFloat64Transposed(
	lhs, rhs []float32, //alt:f32
	//alt:bf16 lhs, rhs []bfloat16.BFloat16,
	//alt:f16 lhs, rhs []float16.Float16,
	//alt:f64 lhs, rhs []float64,
	batchStart, batchCount, lhsCrossSize, rhsCrossSize, contractingSize int,
	output []float32) { //alt:f32|bf16|f16
	//alt:f64 output []float64) {

	if batchCount == 0 || lhsCrossSize == 0 || rhsCrossSize == 0 || contractingSize == 0 {
		return
	}

	{ //alt:f32|bf16|f16|f64
		if AVX512UseAsm { //alt:f32|bf16|f16|f64
			avx512SmallFloat32TransposedAsm(lhs, rhs, batchStart, batchCount, lhsCrossSize, rhsCrossSize, contractingSize, output) //alt:f32
			//alt:bf16 avx512SmallBFloat16TransposedAsm(lhs, rhs, batchStart, batchCount, lhsCrossSize, rhsCrossSize, contractingSize, output)
			//alt:f16 avx512SmallFloat16TransposedAsm(lhs, rhs, batchStart, batchCount, lhsCrossSize, rhsCrossSize, contractingSize, output)
			//alt:f64 avx512SmallFloat64TransposedAsm(lhs, rhs, batchStart, batchCount, lhsCrossSize, rhsCrossSize, contractingSize, output)
			return //alt:f32|bf16|f16|f64
		} //alt:f32|bf16|f16|f64
	} //alt:f32|bf16|f16|f64

	lhsStride := lhsCrossSize * contractingSize
	rhsStride := contractingSize * rhsCrossSize
	outputStride := lhsCrossSize * rhsCrossSize

	var iZero float32 //alt:f32
	//alt:bf16 var iZero bfloat16.BFloat16
	//alt:f16 var iZero float16.Float16
	//alt:f64 var iZero float64
	iSize := unsafe.Sizeof(iZero)
	var oZero float32 //alt:f32|bf16|f16
	//alt:f64 var oZero float64
	oSize := unsafe.Sizeof(oZero)

	lhsPtr := uintptr(unsafe.Pointer(unsafe.SliceData(lhs)))
	rhsPtr := uintptr(unsafe.Pointer(unsafe.SliceData(rhs)))
	outputPtr := uintptr(unsafe.Pointer(unsafe.SliceData(output)))

	lhsByteStride := uintptr(lhsStride) * iSize
	rhsByteStride := uintptr(rhsStride) * iSize
	outputByteStride := uintptr(outputStride) * oSize

	lhsBase := lhsPtr + uintptr(batchStart)*lhsByteStride
	rhsBase := rhsPtr + uintptr(batchStart)*rhsByteStride
	outputBase := outputPtr + uintptr(batchStart)*outputByteStride

	for range batchCount {
		for row := 0; row < lhsCrossSize; row++ {
			for col := 0; col < rhsCrossSize; col++ {
				lRowBase := lhsBase + uintptr(row*contractingSize)*iSize
				rColBase := rhsBase + uintptr(col*contractingSize)*iSize

				// Accumulate dot product using AVX512
				acc := archsimd.BroadcastFloat32x16(0.0) //alt:f32|bf16|f16
				//alt:f64 acc := archsimd.BroadcastFloat64x8(0.0)
				k := 0
				// Vector width: 16 for float32, 32 for bfloat16/float16, 8 for float64
				const vecWidth = 16 //alt:f32
				//alt:bf16 const vecWidth = 32
				//alt:f16 const vecWidth = 32
				//alt:f64 const vecWidth = 8

				// Unroll by 4 registers on the contracting size
				for ; k+4*vecWidth <= contractingSize; k += 4 * vecWidth {
					// Load LHS (contiguous)
					l0 := archsimd.LoadFloat32x16Array((*[16]float32)(unsafe.Pointer(lRowBase + uintptr(k)*iSize))) //alt:f32
					//alt:bf16 l0_bf16 := bfloat16.LoadBFloat16x32((*[32]bfloat16.BFloat16)(unsafe.Pointer(lRowBase + uintptr(k)*iSize)))
					//alt:bf16 l0a, l0b := l0_bf16.ToFloat32()
					//alt:f16 l0_f16 := float16.LoadFloat16x32((*[32]float16.Float16)(unsafe.Pointer(lRowBase + uintptr(k)*iSize)))
					//alt:f16 l0a, l0b := l0_f16.ToFloat32()
					//alt:f64 l0 := archsimd.LoadFloat64x8Array((*[8]float64)(unsafe.Pointer(lRowBase + uintptr(k)*iSize)))

					// Load RHS (contiguous for Transposed)
					r0 := archsimd.LoadFloat32x16Array((*[16]float32)(unsafe.Pointer(rColBase + uintptr(k)*iSize))) //alt:f32
					//alt:bf16 r0_bf16 := bfloat16.LoadBFloat16x32((*[32]bfloat16.BFloat16)(unsafe.Pointer(rColBase + uintptr(k)*iSize)))
					//alt:bf16 r0a, r0b := r0_bf16.ToFloat32()
					//alt:f16 r0_f16 := float16.LoadFloat16x32((*[32]float16.Float16)(unsafe.Pointer(rColBase + uintptr(k)*iSize)))
					//alt:f16 r0a, r0b := r0_f16.ToFloat32()
					//alt:f64 r0 := archsimd.LoadFloat64x8Array((*[8]float64)(unsafe.Pointer(rColBase + uintptr(k)*iSize)))

					acc = l0.MulAdd(r0, acc) //alt:f32|f64
					//alt:bf16 acc = l0a.MulAdd(r0a, acc)
					//alt:bf16 acc = l0b.MulAdd(r0b, acc)
					//alt:f16 acc = l0a.MulAdd(r0a, acc)
					//alt:f16 acc = l0b.MulAdd(r0b, acc)

					l1 := archsimd.LoadFloat32x16Array((*[16]float32)(unsafe.Pointer(lRowBase + uintptr(k+vecWidth)*iSize))) //alt:f32
					//alt:bf16 l1_bf16 := bfloat16.LoadBFloat16x32((*[32]bfloat16.BFloat16)(unsafe.Pointer(lRowBase + uintptr(k+vecWidth)*iSize)))
					//alt:bf16 l1a, l1b := l1_bf16.ToFloat32()
					//alt:f16 l1_f16 := float16.LoadFloat16x32((*[32]float16.Float16)(unsafe.Pointer(lRowBase + uintptr(k+vecWidth)*iSize)))
					//alt:f16 l1a, l1b := l1_f16.ToFloat32()
					//alt:f64 l1 := archsimd.LoadFloat64x8Array((*[8]float64)(unsafe.Pointer(lRowBase + uintptr(k+vecWidth)*iSize)))
					r1 := archsimd.LoadFloat32x16Array((*[16]float32)(unsafe.Pointer(rColBase + uintptr(k+vecWidth)*iSize))) //alt:f32
					//alt:bf16 r1_bf16 := bfloat16.LoadBFloat16x32((*[32]bfloat16.BFloat16)(unsafe.Pointer(rColBase + uintptr(k+vecWidth)*iSize)))
					//alt:bf16 r1a, r1b := r1_bf16.ToFloat32()
					//alt:f16 r1_f16 := float16.LoadFloat16x32((*[32]float16.Float16)(unsafe.Pointer(rColBase + uintptr(k+vecWidth)*iSize)))
					//alt:f16 r1a, r1b := r1_f16.ToFloat32()
					//alt:f64 r1 := archsimd.LoadFloat64x8Array((*[8]float64)(unsafe.Pointer(rColBase + uintptr(k+vecWidth)*iSize)))
					acc = l1.MulAdd(r1, acc) //alt:f32|f64
					//alt:bf16 acc = l1a.MulAdd(r1a, acc)
					//alt:bf16 acc = l1b.MulAdd(r1b, acc)
					//alt:f16 acc = l1a.MulAdd(r1a, acc)
					//alt:f16 acc = l1b.MulAdd(r1b, acc)

					l2 := archsimd.LoadFloat32x16Array((*[16]float32)(unsafe.Pointer(lRowBase + uintptr(k+2*vecWidth)*iSize))) //alt:f32
					//alt:bf16 l2_bf16 := bfloat16.LoadBFloat16x32((*[32]bfloat16.BFloat16)(unsafe.Pointer(lRowBase + uintptr(k+2*vecWidth)*iSize)))
					//alt:bf16 l2a, l2b := l2_bf16.ToFloat32()
					//alt:f16 l2_f16 := float16.LoadFloat16x32((*[32]float16.Float16)(unsafe.Pointer(lRowBase + uintptr(k+2*vecWidth)*iSize)))
					//alt:f16 l2a, l2b := l2_f16.ToFloat32()
					//alt:f64 l2 := archsimd.LoadFloat64x8Array((*[8]float64)(unsafe.Pointer(lRowBase + uintptr(k+2*vecWidth)*iSize)))
					r2 := archsimd.LoadFloat32x16Array((*[16]float32)(unsafe.Pointer(rColBase + uintptr(k+2*vecWidth)*iSize))) //alt:f32
					//alt:bf16 r2_bf16 := bfloat16.LoadBFloat16x32((*[32]bfloat16.BFloat16)(unsafe.Pointer(rColBase + uintptr(k+2*vecWidth)*iSize)))
					//alt:bf16 r2a, r2b := r2_bf16.ToFloat32()
					//alt:f16 r2_f16 := float16.LoadFloat16x32((*[32]float16.Float16)(unsafe.Pointer(rColBase + uintptr(k+2*vecWidth)*iSize)))
					//alt:f16 r2a, r2b := r2_f16.ToFloat32()
					//alt:f64 r2 := archsimd.LoadFloat64x8Array((*[8]float64)(unsafe.Pointer(rColBase + uintptr(k+2*vecWidth)*iSize)))
					acc = l2.MulAdd(r2, acc) //alt:f32|f64
					//alt:bf16 acc = l2a.MulAdd(r2a, acc)
					//alt:bf16 acc = l2b.MulAdd(r2b, acc)
					//alt:f16 acc = l2a.MulAdd(r2a, acc)
					//alt:f16 acc = l2b.MulAdd(r2b, acc)

					l3 := archsimd.LoadFloat32x16Array((*[16]float32)(unsafe.Pointer(lRowBase + uintptr(k+3*vecWidth)*iSize))) //alt:f32
					//alt:bf16 l3_bf16 := bfloat16.LoadBFloat16x32((*[32]bfloat16.BFloat16)(unsafe.Pointer(lRowBase + uintptr(k+3*vecWidth)*iSize)))
					//alt:bf16 l3a, l3b := l3_bf16.ToFloat32()
					//alt:f16 l3_f16 := float16.LoadFloat16x32((*[32]float16.Float16)(unsafe.Pointer(lRowBase + uintptr(k+3*vecWidth)*iSize)))
					//alt:f16 l3a, l3b := l3_f16.ToFloat32()
					//alt:f64 l3 := archsimd.LoadFloat64x8Array((*[8]float64)(unsafe.Pointer(lRowBase + uintptr(k+3*vecWidth)*iSize)))
					r3 := archsimd.LoadFloat32x16Array((*[16]float32)(unsafe.Pointer(rColBase + uintptr(k+3*vecWidth)*iSize))) //alt:f32
					//alt:bf16 r3_bf16 := bfloat16.LoadBFloat16x32((*[32]bfloat16.BFloat16)(unsafe.Pointer(rColBase + uintptr(k+3*vecWidth)*iSize)))
					//alt:bf16 r3a, r3b := r3_bf16.ToFloat32()
					//alt:f16 r3_f16 := float16.LoadFloat16x32((*[32]float16.Float16)(unsafe.Pointer(rColBase + uintptr(k+3*vecWidth)*iSize)))
					//alt:f16 r3a, r3b := r3_f16.ToFloat32()
					//alt:f64 r3 := archsimd.LoadFloat64x8Array((*[8]float64)(unsafe.Pointer(rColBase + uintptr(k+3*vecWidth)*iSize)))
					acc = l3.MulAdd(r3, acc) //alt:f32|f64
					//alt:bf16 acc = l3a.MulAdd(r3a, acc)
					//alt:bf16 acc = l3b.MulAdd(r3b, acc)
					//alt:f16 acc = l3a.MulAdd(r3a, acc)
					//alt:f16 acc = l3b.MulAdd(r3b, acc)
				}

				// Remaining full vectors
				for ; k+vecWidth <= contractingSize; k += vecWidth {
					lVal := archsimd.LoadFloat32x16Array((*[16]float32)(unsafe.Pointer(lRowBase + uintptr(k)*iSize))) //alt:f32
					//alt:bf16 l_bf16 := bfloat16.LoadBFloat16x32((*[32]bfloat16.BFloat16)(unsafe.Pointer(lRowBase + uintptr(k)*iSize)))
					//alt:bf16 la, lb := l_bf16.ToFloat32()
					//alt:f16 l_f16 := float16.LoadFloat16x32((*[32]float16.Float16)(unsafe.Pointer(lRowBase + uintptr(k)*iSize)))
					//alt:f16 la, lb := l_f16.ToFloat32()
					//alt:f64 lVal := archsimd.LoadFloat64x8Array((*[8]float64)(unsafe.Pointer(lRowBase + uintptr(k)*iSize)))
					rVal := archsimd.LoadFloat32x16Array((*[16]float32)(unsafe.Pointer(rColBase + uintptr(k)*iSize))) //alt:f32
					//alt:bf16 r_bf16 := bfloat16.LoadBFloat16x32((*[32]bfloat16.BFloat16)(unsafe.Pointer(rColBase + uintptr(k)*iSize)))
					//alt:bf16 ra, rb := r_bf16.ToFloat32()
					//alt:f16 r_f16 := float16.LoadFloat16x32((*[32]float16.Float16)(unsafe.Pointer(rColBase + uintptr(k)*iSize)))
					//alt:f16 ra, rb := r_f16.ToFloat32()
					//alt:f64 rVal := archsimd.LoadFloat64x8Array((*[8]float64)(unsafe.Pointer(rColBase + uintptr(k)*iSize)))
					acc = lVal.MulAdd(rVal, acc) //alt:f32|f64
					//alt:bf16 acc = la.MulAdd(ra, acc)
					//alt:bf16 acc = lb.MulAdd(rb, acc)
					//alt:f16 acc = la.MulAdd(ra, acc)
					//alt:f16 acc = lb.MulAdd(rb, acc)
				}

				// Horizontal reduction
				res := avx512ReduceSumFloat32x16(acc) //alt:f32|bf16|f16
				//alt:f64 res := avx512ReduceSumFloat64x8(acc)
				// Scalar tail
				for ; k < contractingSize; k++ {
					lVal := *(*float32)(unsafe.Pointer(lRowBase + uintptr(k)*iSize)) //alt:f32
					//alt:bf16 lVal := (*(*bfloat16.BFloat16)(unsafe.Pointer(lRowBase + uintptr(k)*iSize))).Float32()
					//alt:f16 lVal := (*(*float16.Float16)(unsafe.Pointer(lRowBase + uintptr(k)*iSize))).Float32()
					//alt:f64 lVal := *(*float64)(unsafe.Pointer(lRowBase + uintptr(k)*iSize))
					rVal := *(*float32)(unsafe.Pointer(rColBase + uintptr(k)*iSize)) //alt:f32
					//alt:bf16 rVal := (*(*bfloat16.BFloat16)(unsafe.Pointer(rColBase + uintptr(k)*iSize))).Float32()
					//alt:f16 rVal := (*(*float16.Float16)(unsafe.Pointer(rColBase + uintptr(k)*iSize))).Float32()
					//alt:f64 rVal := *(*float64)(unsafe.Pointer(rColBase + uintptr(k)*iSize))
					res += lVal * rVal
				}

				// Write result
				outputIdx := outputBase + uintptr(row*rhsCrossSize+col)*oSize
				*(*float32)(unsafe.Pointer(outputIdx)) = res //alt:f32|bf16|f16
				//alt:f64 *(*float64)(unsafe.Pointer(outputIdx)) = res
			}
		}

		lhsBase += lhsByteStride
		rhsBase += rhsByteStride
		outputBase += outputByteStride
	}
}
