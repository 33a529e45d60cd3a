// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package avx512

import (
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/internal/gobackend/dot"
	"github.com/gomlx/compute/internal/gobackend/dot/matmul"
	"github.com/gomlx/compute/internal/gobackend/dot/matmul/avx2" //alt:f32
	"k8s.io/klog/v2"
	//alt:bf16 "github.com/gomlx/compute/dtypes/bfloat16"
	//alt:f16 "github.com/gomlx/compute/dtypes/float16"
)

// avx512RouterFloat32 implements a router that decides between the small no-SIMD version
// or the large AVX512 version for Float32.
func avx512RouterFloat32( //alt:f32
	//alt:bf16 func avx512RouterBFloat16(
	//alt:f16 func avx512RouterFloat16(
	//alt:f64 func avx512RouterFloat64(
	backend *gobackend.Backend,
	layout dot.Layout,
	lhs, rhs []float32, //alt:f32
	//alt:bf16 lhs, rhs []bfloat16.BFloat16,
	//alt:f16 lhs, rhs []float16.Float16,
	//alt:f64 lhs, rhs []float64,
	batchSize, lhsCrossSize, rhsCrossSize, contractingSize int,
	output []float32, //alt:f32|bf16|f16
	//alt:f64 output []float64,
	nodeData *dot.NodeData) {

	// A few rows times PyTorch-layout weights (decoding): the AVX2 skinny
	// path reads each weight once, on every core, and packs nothing.
	if layout == dot.LayoutTransposed && !matmul.ForceLargeVariant && !matmul.ForceSmallVariant && //alt:f32
		avx2.SkinnyTransposedFloat32(backend, lhs, rhs, batchSize, lhsCrossSize, rhsCrossSize, contractingSize, output) { //alt:f32
		return //alt:f32
	} //alt:f32

	// Check if small matrix multiplication kernel can be used.
	flops := batchSize * lhsCrossSize * rhsCrossSize * contractingSize
	useSmallVariant := !matmul.ForceLargeVariant && (matmul.ForceSmallVariant || flops < matmul.SmallMatMulSizeThreshold)
	// A product with fewer lhs rows than the large kernel's tile (8) cannot
	// repay packing: the rhs panel is packed per batch item and then used
	// by those few rows only. KV-cache attention is made of these (one
	// query row per head, hundreds of batch items): the small kernels,
	// parallel over the batch, do them without packing.
	useSmallVariant = useSmallVariant || (!matmul.ForceLargeVariant && lhsCrossSize < 8) //alt:f32
	if klog.V(1).Enabled() {
		variant := "large (avx512)"
		if useSmallVariant {
			variant = "small (avx512)"
		}
		klog.Infof("Using %s variant for AVX512 dot-product kernel, layout=%s, "+
			"lhs=[%d, %d, %d], rhs=[%d, %d, %d], output=[%d, %d, %d]",
			variant, layout, batchSize, lhsCrossSize, contractingSize,
			batchSize, rhsCrossSize, contractingSize,
			batchSize, lhsCrossSize, rhsCrossSize)
	}

	if useSmallVariant {
		avx512SmallFloat32Parallel( //alt:f32
			//alt:bf16 avx512SmallBFloat16Parallel(
			//alt:f16 avx512SmallFloat16Parallel(
			//alt:f64 avx512SmallFloat64Parallel(
			backend, layout, lhs, rhs, batchSize, lhsCrossSize, rhsCrossSize, contractingSize, output)
		return
	}

	// Use the efficient large matrix version:
	avx512LargeFloat32( //alt:f32
		//alt:bf16 avx512LargeBFloat16(
		//alt:f16 avx512LargeFloat16(
		//alt:f64 avx512LargeFloat64(
		backend, layout, lhs, rhs, batchSize, lhsCrossSize, rhsCrossSize, contractingSize, output, nodeData)
}
