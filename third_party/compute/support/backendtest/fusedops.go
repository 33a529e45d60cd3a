// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

package backendtest

import (
	"math"
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/dtypes/bfloat16"
	"github.com/gomlx/compute/dtypes/float16"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/compute/support/testutil"
	"github.com/gomlx/compute/support/xslices"
)

// tolerance for floating point comparison.
const fusedTestTolerance = 1e-6

func TestFusedOps(t *testing.T, b compute.Backend) {
	t.Run("FusedSoftmax", func(t *testing.T) {
		testutil.SkipIfMissing(t, b, compute.OpTypeFusedSoftmax)
		t.Run("1D", func(t *testing.T) {
			input := []float32{1.0, 2.0, 3.0, 4.0}
			got, err := testutil.Exec1(b, []any{input}, func(f compute.Function, params []compute.Value) (compute.Value, error) {
				return f.FusedSoftmax(params[0], 0)
			})
			if err != nil {
				t.Fatalf("FusedSoftmax failed: %+v", err)
			}
			// Known-correct softmax([1,2,3,4]).
			want := []float32{0.0320586, 0.0871443, 0.2368828, 0.6439143}
			if ok, diff := testutil.IsInDelta(want, got, fusedTestTolerance); !ok {
				t.Errorf("Result not within delta %f:\n%s", fusedTestTolerance, diff)
			}
		})

		t.Run("2D", func(t *testing.T) {
			input := [][]float32{{1, 2, 3}, {4, 5, 6}}
			got, err := testutil.Exec1(b, []any{input}, func(f compute.Function, params []compute.Value) (compute.Value, error) {
				return f.FusedSoftmax(params[0], 1)
			})
			if err != nil {
				t.Fatalf("FusedSoftmax failed: %+v", err)
			}
			gotSlice := got.([][]float32)
			// Each row should sum to 1.
			for row := range 2 {
				sum := gotSlice[row][0] + gotSlice[row][1] + gotSlice[row][2]
				if ok, diff := testutil.IsInDelta(float32(1.0), sum, fusedTestTolerance); !ok {
					t.Errorf("row %d: result not within delta %f:\n%s", row, fusedTestTolerance, diff)
				}
			}
		})

		t.Run("LargeAndRemainder", func(t *testing.T) {
			const numRows, rowSize = 3, 37
			input := make([][]float32, numRows)
			for r := range numRows {
				input[r] = make([]float32, rowSize)
				for c := range rowSize {
					input[r][c] = float32(r*10 + c%7)
				}
			}
			got, err := testutil.Exec1(b, []any{input}, func(f compute.Function, params []compute.Value) (compute.Value, error) {
				return f.FusedSoftmax(params[0], 1)
			})
			if err != nil {
				t.Fatalf("FusedSoftmax failed: %+v", err)
			}
			gotSlice := got.([][]float32)
			for r := range numRows {
				var sum float32
				for c := range rowSize {
					sum += gotSlice[r][c]
				}
				if ok, diff := testutil.IsInDelta(float32(1.0), sum, fusedTestTolerance); !ok {
					t.Errorf("row %d: sum %f not within delta %f:\n%s", r, sum, fusedTestTolerance, diff)
				}
			}
		})

		t.Run("NegativeAxis", func(t *testing.T) {
			builder := b.Builder("fused_test")
			mainFn := builder.Main()
			param, _ := mainFn.Parameter("x", shapes.Make(dtypes.Float32, 2, 3), nil)
			_, err := mainFn.FusedSoftmax(param, -1)
			if err == nil {
				t.Errorf("FusedSoftmax should reject negative axis")
			}
		})

		t.Run("Stability", func(t *testing.T) {
			input := []float32{1000, 1001, 1002}
			got, err := testutil.Exec1(b, []any{input}, func(f compute.Function, params []compute.Value) (compute.Value, error) {
				return f.FusedSoftmax(params[0], 0)
			})
			if err != nil {
				t.Fatalf("FusedSoftmax failed: %+v", err)
			}
			gotSlice := got.([]float32)
			var sum float32
			for _, v := range gotSlice {
				sum += v
				if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
					t.Errorf("softmax produced NaN/Inf")
				}
			}
			if ok, diff := testutil.IsInDelta(float32(1.0), sum, fusedTestTolerance); !ok {
				t.Errorf("Result not within delta %f:\n%s", fusedTestTolerance, diff)
			}
		})
	})

	t.Run("FusedActivation", func(t *testing.T) { testFusedActivation(t, b) })
	t.Run("FusedActivationVJP", func(t *testing.T) { testFusedActivationVJP(t, b) })

	t.Run("FusedLayerNorm", func(t *testing.T) {
		testutil.SkipIfMissing(t, b, compute.OpTypeFusedLayerNorm)
		t.Run("Simple", func(t *testing.T) {
			input := [][]float32{{1, 2, 3, 4}, {5, 6, 7, 8}}
			epsilon := 1e-5
			got, err := testutil.Exec1(b, []any{input}, func(f compute.Function, params []compute.Value) (compute.Value, error) {
				return f.FusedLayerNorm(params[0], []int{1}, epsilon, nil, nil)
			})
			if err != nil {
				t.Fatalf("FusedLayerNorm failed: %+v", err)
			}
			gotSlice := got.([][]float32)
			for row := range 2 {
				var sum, varSum float32
				for i := range 4 {
					sum += gotSlice[row][i]
				}
				mean := sum / 4.0
				if math.Abs(float64(mean)) > 1e-5 {
					t.Errorf("row %d mean %f too large", row, mean)
				}
				for i := range 4 {
					diff := gotSlice[row][i] - mean
					varSum += diff * diff
				}
				variance := varSum / 4.0
				if ok, diff := testutil.IsInDelta(float32(1.0), variance, 1e-3); !ok {
					t.Errorf("row %d variance mismatch:\n%s", row, diff)
				}
			}
		})

		t.Run("WithGammaBeta", func(t *testing.T) {
			input := []float32{1, 2, 3}
			gamma := []float32{2, 2, 2}
			beta := []float32{1, 1, 1}
			epsilon := 1e-5
			got, err := testutil.Exec1(b, []any{input, gamma, beta}, func(f compute.Function, params []compute.Value) (compute.Value, error) {
				return f.FusedLayerNorm(params[0], []int{0}, epsilon, params[1], params[2])
			})
			if err != nil {
				t.Fatalf("FusedLayerNorm failed: %+v", err)
			}
			// mean=2, var=2/3
			invStd := float32(1.0 / math.Sqrt(2.0/3.0+epsilon))
			want := []float32{(1.0-2.0)*invStd*2.0 + 1.0, (2.0-2.0)*invStd*2.0 + 1.0, (3.0-2.0)*invStd*2.0 + 1.0}
			if ok, diff := testutil.IsInDelta(want, got, 1e-4); !ok {
				t.Errorf("LayerNorm with gamma/beta mismatch:\n%s", diff)
			}
		})
	})

	t.Run("FusedDense", func(t *testing.T) {
		testutil.SkipIfMissing(t, b, compute.OpTypeFusedDense)
		x := [][]float32{{1, 2, 3}, {4, 5, 6}}
		w := [][]float32{{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}}
		bias := []float32{10, 20, 30, 40}

		t.Run("None", func(t *testing.T) {
			got, err := testutil.Exec1(b, []any{x, w, bias}, func(f compute.Function, params []compute.Value) (compute.Value, error) {
				return f.FusedDense(params[0], params[1], params[2], compute.DenseConfig{Activation: compute.ActivationConfig{Type: compute.ActivationNone}})
			})
			if err != nil {
				t.Fatalf("FusedDense failed: %+v", err)
			}
			want := [][]float32{{11, 22, 33, 46}, {14, 25, 36, 55}}
			if ok, diff := testutil.IsEqual(want, got); !ok {
				t.Errorf("FusedDense mismatch:\n%s", diff)
			}
		})

		t.Run("Relu", func(t *testing.T) {
			x2 := [][]float32{{1, -1}}
			w2 := [][]float32{{1, 1}, {0, -1}}
			b2 := []float32{-1, -1}
			got, err := testutil.Exec1(b, []any{x2, w2, b2}, func(f compute.Function, params []compute.Value) (compute.Value, error) {
				return f.FusedDense(params[0], params[1], params[2], compute.DenseConfig{Activation: compute.ActivationConfig{Type: compute.ActivationRelu}})
			})
			if err != nil {
				t.Fatalf("FusedDense failed: %+v", err)
			}
			want := [][]float32{{0, 1}}
			if ok, diff := testutil.IsEqual(want, got); !ok {
				t.Errorf("FusedDense Relu mismatch:\n%s", diff)
			}
		})

		t.Run("OutputsInput", func(t *testing.T) {
			// w transposed: [4, 3]
			wT := [][]float32{
				{1, 0, 0},
				{0, 1, 0},
				{0, 0, 1},
				{1, 1, 1},
			}
			got, err := testutil.Exec1(b, []any{x, wT, bias}, func(f compute.Function, params []compute.Value) (compute.Value, error) {
				return f.FusedDense(params[0], params[1], params[2], compute.DenseConfig{
					Activation:   compute.ActivationConfig{Type: compute.ActivationNone},
					WeightLayout: compute.DenseLayoutOutputsInput,
				})
			})
			if err != nil {
				t.Fatalf("FusedDense failed: %+v", err)
			}
			want := [][]float32{{11, 22, 33, 46}, {14, 25, 36, 55}}
			if ok, diff := testutil.IsEqual(want, got); !ok {
				t.Errorf("FusedDense OutputsInput mismatch:\n%s", diff)
			}
		})

		t.Run("BFloat16", func(t *testing.T) {
			testutil.SkipIfMissingDType(t, b, dtypes.BFloat16)
			bf16 := bfloat16.FromFloat32
			xBF16 := [][]bfloat16.BFloat16{{bf16(1), bf16(2), bf16(3)}, {bf16(4), bf16(5), bf16(6)}}
			wBF16 := [][]bfloat16.BFloat16{
				{bf16(1), bf16(0), bf16(0), bf16(1)},
				{bf16(0), bf16(1), bf16(0), bf16(1)},
				{bf16(0), bf16(0), bf16(1), bf16(1)},
			}
			bBF16 := []bfloat16.BFloat16{bf16(10), bf16(20), bf16(30), bf16(40)}
			got, err := testutil.Exec1(b, []any{xBF16, wBF16, bBF16}, func(f compute.Function, params []compute.Value) (compute.Value, error) {
				return f.FusedDense(params[0], params[1], params[2], compute.DenseConfig{Activation: compute.ActivationConfig{Type: compute.ActivationNone}})
			})
			if err != nil {
				t.Fatalf("FusedDense failed: %+v", err)
			}
			want := [][]bfloat16.BFloat16{{bf16(11), bf16(22), bf16(33), bf16(46)}, {bf16(14), bf16(25), bf16(36), bf16(55)}}
			if ok, diff := testutil.IsEqual(want, got); !ok {
				t.Errorf("FusedDense BF16 mismatch:\n%s", diff)
			}
		})

		t.Run("Float16", func(t *testing.T) {
			f16 := float16.FromFloat32
			xF16 := [][]float16.Float16{{f16(1), f16(2), f16(3)}, {f16(4), f16(5), f16(6)}}
			wF16 := [][]float16.Float16{
				{f16(1), f16(0), f16(0), f16(1)},
				{f16(0), f16(1), f16(0), f16(1)},
				{f16(0), f16(0), f16(1), f16(1)},
			}
			bF16 := []float16.Float16{f16(10), f16(20), f16(30), f16(40)}
			got, err := testutil.Exec1(b, []any{xF16, wF16, bF16}, func(f compute.Function, params []compute.Value) (compute.Value, error) {
				return f.FusedDense(params[0], params[1], params[2], compute.DenseConfig{Activation: compute.ActivationConfig{Type: compute.ActivationNone}})
			})
			if err != nil {
				t.Fatalf("FusedDense F16 failed: %+v", err)
			}
			want := [][]float16.Float16{{f16(11), f16(22), f16(33), f16(46)}, {f16(14), f16(25), f16(36), f16(55)}}
			if ok, diff := testutil.IsEqual(want, got); !ok {
				t.Errorf("FusedDense F16 mismatch:\n%s", diff)
			}
		})

		t.Run("Float64", func(t *testing.T) {
			xF64 := [][]float64{{1, 2, 3}, {4, 5, 6}}
			wF64 := [][]float64{{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}}
			bF64 := []float64{10, 20, 30, 40}
			got, err := testutil.Exec1(b, []any{xF64, wF64, bF64}, func(f compute.Function, params []compute.Value) (compute.Value, error) {
				return f.FusedDense(params[0], params[1], params[2], compute.DenseConfig{Activation: compute.ActivationConfig{Type: compute.ActivationRelu}})
			})
			if err != nil {
				t.Fatalf("FusedDense Float64 failed: %+v", err)
			}
			want := [][]float64{{11, 22, 33, 46}, {14, 25, 36, 55}}
			if ok, diff := testutil.IsEqual(want, got); !ok {
				t.Errorf("FusedDense Float64 mismatch:\n%s", diff)
			}
		})

		t.Run("Activations", func(t *testing.T) {
			input1D := []float32{0, -1, 2, -3, 4, -5, 6}
			n := len(input1D)
			x1D := [][]float32{input1D}
			wIdentity := make([][]float32, n)
			for i := range wIdentity {
				wIdentity[i] = make([]float32, n)
				wIdentity[i][i] = 1.0
			}
			biasZeros := make([]float32, n)

			tests := []struct {
				name      string
				actType   compute.ActivationType
				want      []float32
				tolerance float64
			}{
				{"None", compute.ActivationNone, []float32{0, -1, 2, -3, 4, -5, 6}, xslices.Epsilon},
				{"Relu", compute.ActivationRelu, []float32{0, 0, 2, 0, 4, 0, 6}, xslices.Epsilon},
				{"Sigmoid", compute.ActivationSigmoid, []float32{0.5, 0.26894143, 0.8807971, 0.047425873, 0.98201376, 0.006692851, 0.9975274}, 1e-5},
				{"HardSigmoid", compute.ActivationHardSigmoid, []float32{0.5, 0.3, 0.9, 0.0, 1.0, 0.0, 1.0}, xslices.Epsilon},
				{"LeakyRelu", compute.ActivationLeakyRelu, []float32{0, -0.3, 2, -0.9, 4, -1.5, 6}, xslices.Epsilon},
				{"Selu", compute.ActivationSelu, []float32{0.0, -1.1113307, 2.101402, -1.6705687, 4.202804, -1.7462534, 6.304206}, 1e-5},
				{"Silu", compute.ActivationSilu, []float32{0, -0.26894143, 1.7615942, -0.14227763, 3.928055, -0.03346425, 5.9851646}, 1e-5},
				{"HardSwish", compute.ActivationHardSwish, []float32{0, -0.33333334, 1.6666666, 0, 4, 0, 6}, xslices.Epsilon},
				{"Tanh", compute.ActivationTanh, []float32{0, -0.76159416, 0.9640276, -0.99505475, 0.9993293, -0.9999092, 0.9999877}, 1e-5},
				{"GeluExact", compute.ActivationGelu, []float32{0, -0.15865526, 1.9544997, -4.0496886e-03, 3.9998736, -1.3411045e-06, 6}, 1e-5},
				{"GeluApproximate", compute.ActivationGeluApproximate, []float32{0, -0.15880796, 1.9545977, -3.6375225e-03, 3.9999294, 0, 6}, 0.01},
			}

			for _, tc := range tests {
				t.Run(tc.name, func(t *testing.T) {
					got, err := testutil.Exec1(b, []any{x1D, wIdentity, biasZeros}, func(f compute.Function, params []compute.Value) (compute.Value, error) {
						return f.FusedDense(params[0], params[1], params[2], compute.DenseConfig{
							Activation: compute.ActivationConfig{Type: tc.actType},
						})
					})
					if err != nil {
						t.Fatalf("FusedDense(%s) failed: %+v", tc.name, err)
					}
					want2D := [][]float32{tc.want}
					if ok, diff := testutil.IsInDelta(want2D, got, tc.tolerance); !ok {
						t.Errorf("FusedDense(%s) result mismatch:\n%s", tc.name, diff)
					}
				})
			}
		})

		t.Run("SwiGLU_Rejected", func(t *testing.T) {
			builder := b.Builder("fused_dense_swiglu_reject")
			mainFn := builder.Main()
			xVal, _ := mainFn.Parameter("x", shapes.Make(dtypes.Float32, 1, 4), nil)
			wVal, _ := mainFn.Parameter("w", shapes.Make(dtypes.Float32, 4, 4), nil)
			_, err := mainFn.FusedDense(xVal, wVal, nil, compute.DenseConfig{Activation: compute.ActivationConfig{Type: compute.ActivationSwiGLU}})
			if err == nil {
				t.Errorf("FusedDense should reject SwiGLU")
			}
		})
	})

	t.Run("FusedScaledDotProductAttention", func(t *testing.T) {
		testutil.SkipIfMissing(t, b, compute.OpTypeFusedScaledDotProductAttention)
		t.Run("BHSD_Causal", func(t *testing.T) {
			q := [][][][]float32{{{{1}, {1}}}} // [1,1,2,1]
			k := [][][][]float32{{{{1}, {1}}}}
			v := [][][][]float32{{{{10}, {20}}}}
			got, err := testutil.Exec1(b, []any{q, k, v}, func(f compute.Function, params []compute.Value) (compute.Value, error) {
				out, _, err := f.FusedScaledDotProductAttention(params[0], params[1], params[2], compute.AttentionAxesLayoutBHSD, &compute.ScaledDotProductAttentionConfig{Scale: 1.0, Causal: true})
				return out, err
			})
			if err != nil && compute.IsNotImplemented(err) {
				t.Skipf("Skipping for %q, these parameters not supported: %v", b, err)
			}
			if err != nil {
				t.Fatalf("SDPA failed: %+v", err)
			}
			want := [][][][]float32{{{{10}, {15}}}}
			if ok, diff := testutil.IsInDelta(want, got, fusedTestTolerance); !ok {
				t.Errorf("SDPA causal mismatch:\n%s", diff)
			}
		})

		t.Run("BHSD_Causal_Dim32", func(t *testing.T) {
			onesX32 := xslices.SliceWithValue(32, float32(1))
			tensX32 := xslices.SliceWithValue(32, float32(10))
			twentyX32 := xslices.SliceWithValue(32, float32(20))
			q := [][][][]float32{{{onesX32, onesX32}}} // [1,1,2,32]
			k := [][][][]float32{{{onesX32, onesX32}}}
			v := [][][][]float32{{{tensX32, twentyX32}}} // [1,1,2,32]
			got, err := testutil.Exec1(b, []any{q, k, v}, func(f compute.Function, params []compute.Value) (compute.Value, error) {
				out, _, err := f.FusedScaledDotProductAttention(params[0], params[1], params[2], compute.AttentionAxesLayoutBHSD, &compute.ScaledDotProductAttentionConfig{Scale: 1.0, Causal: true})
				return out, err
			})
			if err != nil && compute.IsNotImplemented(err) {
				t.Skipf("Skipping for %q, these parameters not supported: %v", b, err)
			}
			if err != nil {
				t.Fatalf("SDPA failed: %+v", err)
			}
			fifteenX32 := xslices.SliceWithValue(32, float32(15))
			want := [][][][]float32{{{tensX32, fifteenX32}}}
			if ok, diff := testutil.IsInDelta(want, got, fusedTestTolerance); !ok {
				t.Errorf("SDPA causal Dim32 mismatch:\n%s", diff)
			}
		})

		t.Run("BHSD_NonCausal_Dim32", func(t *testing.T) {
			onesX32 := xslices.SliceWithValue(32, float32(1))
			tensX32 := xslices.SliceWithValue(32, float32(10))
			twentyX32 := xslices.SliceWithValue(32, float32(20))
			q := [][][][]float32{{{onesX32, onesX32}}} // [1,1,2,32]
			k := [][][][]float32{{{onesX32, onesX32}}}
			v := [][][][]float32{{{tensX32, twentyX32}}} // [1,1,2,32]
			got, err := testutil.Exec1(b, []any{q, k, v}, func(f compute.Function, params []compute.Value) (compute.Value, error) {
				out, _, err := f.FusedScaledDotProductAttention(params[0], params[1], params[2], compute.AttentionAxesLayoutBHSD, &compute.ScaledDotProductAttentionConfig{Scale: 1.0, Causal: false})
				return out, err
			})
			if err != nil && compute.IsNotImplemented(err) {
				t.Skipf("Skipping for %q, these parameters not supported: %v", b, err)
			}
			if err != nil {
				t.Fatalf("SDPA failed: %+v", err)
			}
			fifteenX32 := xslices.SliceWithValue(32, float32(15))
			want := [][][][]float32{{{fifteenX32, fifteenX32}}}
			if ok, diff := testutil.IsInDelta(want, got, fusedTestTolerance); !ok {
				t.Errorf("SDPA non-causal Dim32 mismatch:\n%s", diff)
			}
		})

		t.Run("BHSD_Causal_Dim64", func(t *testing.T) {
			onesX64 := xslices.SliceWithValue(64, float32(1))
			tensX64 := xslices.SliceWithValue(64, float32(10))
			twentyX64 := xslices.SliceWithValue(64, float32(20))
			q := [][][][]float32{{{onesX64, onesX64}}} // [1,1,2,64]
			k := [][][][]float32{{{onesX64, onesX64}}}
			v := [][][][]float32{{{tensX64, twentyX64}}} // [1,1,2,64]
			got, err := testutil.Exec1(b, []any{q, k, v}, func(f compute.Function, params []compute.Value) (compute.Value, error) {
				out, _, err := f.FusedScaledDotProductAttention(params[0], params[1], params[2], compute.AttentionAxesLayoutBHSD, &compute.ScaledDotProductAttentionConfig{Scale: 1.0, Causal: true})
				return out, err
			})
			if err != nil && compute.IsNotImplemented(err) {
				t.Skipf("Skipping for %q, these parameters not supported: %v", b, err)
			}
			if err != nil {
				t.Fatalf("SDPA failed: %+v", err)
			}
			fifteenX64 := xslices.SliceWithValue(64, float32(15))
			want := [][][][]float32{{{tensX64, fifteenX64}}}
			if ok, diff := testutil.IsInDelta(want, got, fusedTestTolerance); !ok {
				t.Errorf("SDPA causal Dim64 mismatch:\n%s", diff)
			}
		})

		t.Run("BSHD_Causal_Dim32", func(t *testing.T) {
			onesX32 := xslices.SliceWithValue(32, float32(1))
			tensX32 := xslices.SliceWithValue(32, float32(10))
			twentyX32 := xslices.SliceWithValue(32, float32(20))
			q := [][][][]float32{{{onesX32}, {onesX32}}} // [1,2,1,32]
			k := [][][][]float32{{{onesX32}, {onesX32}}}
			v := [][][][]float32{{{tensX32}, {twentyX32}}} // [1,2,1,32]
			got, err := testutil.Exec1(b, []any{q, k, v}, func(f compute.Function, params []compute.Value) (compute.Value, error) {
				out, _, err := f.FusedScaledDotProductAttention(params[0], params[1], params[2], compute.AttentionAxesLayoutBSHD, &compute.ScaledDotProductAttentionConfig{Scale: 1.0, Causal: true})
				return out, err
			})
			if err != nil && compute.IsNotImplemented(err) {
				t.Skipf("Skipping for %q, these parameters not supported: %v", b, err)
			}
			if err != nil {
				t.Fatalf("SDPA failed: %+v", err)
			}
			fifteenX32 := xslices.SliceWithValue(32, float32(15))
			want := [][][][]float32{{{tensX32}, {fifteenX32}}}
			if ok, diff := testutil.IsInDelta(want, got, fusedTestTolerance); !ok {
				t.Errorf("SDPA BSHD Dim32 mismatch:\n%s", diff)
			}
		})

		t.Run("BHSD_Causal_BF16", func(t *testing.T) {
			bf16 := bfloat16.FromFloat32
			// For cuDNN hidden dim must be multiple of 8.
			onesX8 := xslices.SliceWithValue(8, bf16(1))
			tensX8 := xslices.SliceWithValue(8, bf16(10))
			twentyX8 := xslices.SliceWithValue(8, bf16(20))
			q := [][][][]bfloat16.BFloat16{{{onesX8, onesX8}}} // [1,1,2,8]
			k := [][][][]bfloat16.BFloat16{{{onesX8, onesX8}}}
			v := [][][][]bfloat16.BFloat16{{{tensX8, twentyX8}}} // [1, 1, 2, 8]
			got, err := testutil.Exec1(b, []any{q, k, v}, func(f compute.Function, params []compute.Value) (compute.Value, error) {
				out, _, err := f.FusedScaledDotProductAttention(params[0], params[1], params[2], compute.AttentionAxesLayoutBHSD, &compute.ScaledDotProductAttentionConfig{Scale: 1.0, Causal: true})
				return out, err
			})
			if err != nil && compute.IsNotImplemented(err) {
				t.Skipf("Skipping for %q, these parameters not supported: %v", b, err)
			}
			if err != nil {
				t.Fatalf("SDPA failed: %+v", err)
			}
			fifteenX8 := xslices.SliceWithValue(8, bf16(15))
			want := [][][][]bfloat16.BFloat16{{{tensX8, fifteenX8}}}
			if ok, diff := testutil.IsInDelta(want, got, fusedTestTolerance); !ok {
				t.Errorf("SDPA causal mismatch:\n%s", diff)
			}
		})

		t.Run("BHSD_Causal_F16", func(t *testing.T) {
			f16 := float16.FromFloat32
			onesX8 := xslices.SliceWithValue(8, f16(1))
			tensX8 := xslices.SliceWithValue(8, f16(10))
			twentyX8 := xslices.SliceWithValue(8, f16(20))
			q := [][][][]float16.Float16{{{onesX8, onesX8}}} // [1,1,2,8]
			k := [][][][]float16.Float16{{{onesX8, onesX8}}}
			v := [][][][]float16.Float16{{{tensX8, twentyX8}}} // [1, 1, 2, 8]
			got, err := testutil.Exec1(b, []any{q, k, v}, func(f compute.Function, params []compute.Value) (compute.Value, error) {
				out, _, err := f.FusedScaledDotProductAttention(params[0], params[1], params[2], compute.AttentionAxesLayoutBHSD, &compute.ScaledDotProductAttentionConfig{Scale: 1.0, Causal: true})
				return out, err
			})
			if err != nil && compute.IsNotImplemented(err) {
				t.Skipf("Skipping for %q, these parameters not supported: %v", b, err)
			}
			if err != nil {
				t.Fatalf("SDPA failed: %+v", err)
			}
			fifteenX8 := xslices.SliceWithValue(8, f16(15))
			want := [][][][]float16.Float16{{{tensX8, fifteenX8}}}
			if ok, diff := testutil.IsInDelta(want, got, fusedTestTolerance); !ok {
				t.Errorf("SDPA causal mismatch:\n%s", diff)
			}
		})

		t.Run("BSHD_Causal", func(t *testing.T) {
			q := [][][][]float32{{{{1}}, {{1}}}} // [1,2,1,1]
			k := [][][][]float32{{{{1}}, {{1}}}}
			v := [][][][]float32{{{{10}}, {{20}}}}
			got, err := testutil.Exec1(b, []any{q, k, v}, func(f compute.Function, params []compute.Value) (compute.Value, error) {
				out, _, err := f.FusedScaledDotProductAttention(params[0], params[1], params[2], compute.AttentionAxesLayoutBSHD, &compute.ScaledDotProductAttentionConfig{Scale: 1.0, Causal: true})
				return out, err
			})
			if err != nil && compute.IsNotImplemented(err) {
				t.Skipf("Skipping for %q, these parameters not supported: %v", b, err)
			}
			if err != nil {
				t.Fatalf("SDPA failed: %+v", err)
			}
			want := [][][][]float32{{{{10}}, {{15}}}}
			if ok, diff := testutil.IsInDelta(want, got, fusedTestTolerance); !ok {
				t.Errorf("SDPA causal mismatch:\n%s", diff)
			}
		})

		t.Run("BSHD_Causal_BF16", func(t *testing.T) {
			bf16 := bfloat16.FromFloat32
			// For cuDNN hidden dim must be multiple of 8.
			onesX8 := xslices.SliceWithValue(8, bf16(1))
			tensX8 := xslices.SliceWithValue(8, bf16(10))
			twentyX8 := xslices.SliceWithValue(8, bf16(20))
			q := [][][][]bfloat16.BFloat16{{{onesX8}, {onesX8}}} // [1,2,1,8]
			k := [][][][]bfloat16.BFloat16{{{onesX8}, {onesX8}}}
			v := [][][][]bfloat16.BFloat16{{{tensX8}, {twentyX8}}} // [1, 2, 1, 8]
			got, err := testutil.Exec1(b, []any{q, k, v}, func(f compute.Function, params []compute.Value) (compute.Value, error) {
				out, _, err := f.FusedScaledDotProductAttention(params[0], params[1], params[2], compute.AttentionAxesLayoutBSHD, &compute.ScaledDotProductAttentionConfig{Scale: 1.0, Causal: true})
				return out, err
			})
			if err != nil && compute.IsNotImplemented(err) {
				t.Skipf("Skipping for %q, these parameters not supported: %v", b, err)
			}
			if err != nil {
				t.Fatalf("SDPA failed: %+v", err)
			}
			fifteenX8 := xslices.SliceWithValue(8, bf16(15))
			want := [][][][]bfloat16.BFloat16{{{tensX8}, {fifteenX8}}}
			if ok, diff := testutil.IsInDelta(want, got, fusedTestTolerance); !ok {
				t.Errorf("SDPA causal mismatch:\n%s", diff)
			}
		})

		t.Run("BSHD_Causal_F16", func(t *testing.T) {
			f16 := float16.FromFloat32
			// For cuDNN hidden dim must be multiple of 8.
			onesX8 := xslices.SliceWithValue(8, f16(1))
			tensX8 := xslices.SliceWithValue(8, f16(10))
			twentyX8 := xslices.SliceWithValue(8, f16(20))
			q := [][][][]float16.Float16{{{onesX8}, {onesX8}}} // [1,2,1,8]
			k := [][][][]float16.Float16{{{onesX8}, {onesX8}}}
			v := [][][][]float16.Float16{{{tensX8}, {twentyX8}}} // [1, 2, 1, 8]
			got, err := testutil.Exec1(b, []any{q, k, v}, func(f compute.Function, params []compute.Value) (compute.Value, error) {
				out, _, err := f.FusedScaledDotProductAttention(params[0], params[1], params[2], compute.AttentionAxesLayoutBSHD, &compute.ScaledDotProductAttentionConfig{Scale: 1.0, Causal: true})
				return out, err
			})
			if err != nil && compute.IsNotImplemented(err) {
				t.Skipf("Skipping for %q, these parameters not supported: %v", b, err)
			}
			if err != nil {
				t.Fatalf("SDPA failed: %+v", err)
			}
			fifteenX8 := xslices.SliceWithValue(8, f16(15))
			want := [][][][]float16.Float16{{{tensX8}, {fifteenX8}}}
			if ok, diff := testutil.IsInDelta(want, got, fusedTestTolerance); !ok {
				t.Errorf("SDPA causal mismatch:\n%s", diff)
			}
		})

		t.Run("WithBooleanMask", func(t *testing.T) {
			q := [][][][]float32{{{{1}}}}        // [1,1,1,1]
			k := [][][][]float32{{{{1}, {1}}}}   // [1,1,2,1]
			v := [][][][]float32{{{{10}, {20}}}} // [1,1,2,1]
			mask := [][]bool{{true, false}}      // [1, 2]
			got, err := testutil.Exec1(b, []any{q, k, v, mask}, func(f compute.Function, params []compute.Value) (compute.Value, error) {
				out, _, err := f.FusedScaledDotProductAttention(params[0], params[1], params[2], compute.AttentionAxesLayoutBHSD, &compute.ScaledDotProductAttentionConfig{Scale: 1.0, Causal: false, Mask: params[3]})
				return out, err
			})
			if err != nil && compute.IsNotImplemented(err) {
				t.Skipf("Skipping for %q, these parameters not supported: %v", b, err)
			}
			if err != nil {
				t.Fatalf("SDPA failed: %+v", err)
			}
			want := [][][][]float32{{{{10}}}}
			if ok, diff := testutil.IsInDelta(want, got, fusedTestTolerance); !ok {
				t.Errorf("SDPA with mask mismatch:\n%s", diff)
			}
		})

		t.Run("QuantizedMatmuls", func(t *testing.T) {
			q := [][][][]float32{{{{1}, {1}}}} // [1,1,2,1]
			k := [][][][]float32{{{{1}, {1}}}}
			v := [][][][]float32{{{{10}, {20}}}}
			got, err := testutil.Exec1(b, []any{q, k, v}, func(f compute.Function, params []compute.Value) (compute.Value, error) {
				out, _, err := f.FusedScaledDotProductAttention(params[0], params[1], params[2], compute.AttentionAxesLayoutBHSD, &compute.ScaledDotProductAttentionConfig{Scale: 1.0, Causal: true, QuantizedMatmuls: true})
				return out, err
			})
			if err != nil && compute.IsNotImplemented(err) {
				t.Skipf("Skipping for %q, these parameters not supported: %v", b, err)
			}
			if err != nil {
				t.Fatalf("SDPA failed: %+v", err)
			}
			want := [][][][]float32{{{{10}, {15}}}}
			if ok, diff := testutil.IsInDelta(want, got, fusedTestTolerance); !ok {
				t.Errorf("SDPA quantized matmuls mismatch:\n%s", diff)
			}
		})

		t.Run("Bias", func(t *testing.T) {
			// f32 bias contract. Skips on cuDNN backends (XLA lowers f32 attention to the decomposed
			// path; the fused flash kernels are half-precision only on every NVIDIA arch), so this runs
			// on a future f32-capable fused backend (CPU SIMD, ONNXRuntime CPU). The bf16 fused path is
			// exercised by Bias_BF16 below.
			// Additive attention-score bias shifts softmax weights; bias strongly favors key 1.
			// Raw scores (scale=1): q@k^T = [[1,1],[1,1]]. Bias [[-10,10],[-10,10]] -> scores [[-9,11],[-9,11]].
			// softmax([-9,11]) ~ [~0,~1] -> output ~ v[1] = 20 for both queries.
			q := [][][][]float32{{{{1}, {1}}}}                // [1,1,2,1]
			k := [][][][]float32{{{{1}, {1}}}}                // [1,1,2,1]
			v := [][][][]float32{{{{10}, {20}}}}              // [1,1,2,1]
			bias := [][][][]float32{{{{-10, 10}, {-10, 10}}}} // [1,1,2,2] batch,head,seqLen,kvLen
			got, err := testutil.Exec1(b, []any{q, k, v, bias}, func(f compute.Function, params []compute.Value) (compute.Value, error) {
				cfg := &compute.ScaledDotProductAttentionConfig{Bias: params[3], Scale: 1.0, Causal: false}
				out, _, err := f.FusedScaledDotProductAttention(params[0], params[1], params[2], compute.AttentionAxesLayoutBHSD, cfg)
				return out, err
			})
			if err != nil && compute.IsNotImplemented(err) {
				t.Skipf("Skipping for %q, these parameters not supported: %v", b, err)
			}
			if err != nil {
				t.Fatalf("SDPA with bias failed: %+v", err)
			}
			// softmax([-9,11]) ~ [sigma_neg, sigma_pos]; sigma_neg ~ 1/(1+e^20) ~ 2e-9.
			softmaxPos := float32(1.0 / (1.0 + math.Exp(-20)))
			softmaxNeg := 1 - softmaxPos
			wantVal := float32(softmaxNeg*10 + softmaxPos*20)
			want := [][][][]float32{{{{wantVal}, {wantVal}}}}
			if ok, diff := testutil.IsInDelta(want, got, 0.01); !ok {
				t.Errorf("SDPA with bias mismatch:\n%s", diff)
			}
		})

		t.Run("BiasWithCausal", func(t *testing.T) {
			// Additive bias and causal mask combine: causal zeroes future positions, bias
			// shifts scores in valid positions. Bias [[0,-100],[0,10]].
			// q0: causal masks k1 -> attends only k0 -> output = v[0] = 10.
			// q1: scores = [1+0, 1+10] = [1,11]; softmax([1,11]) -> weight on k1 ~ 1 -> output ~ 20.
			q := [][][][]float32{{{{1}, {1}}}}              // [1,1,2,1]
			k := [][][][]float32{{{{1}, {1}}}}              // [1,1,2,1]
			v := [][][][]float32{{{{10}, {20}}}}            // [1,1,2,1]
			bias := [][][][]float32{{{{0, -100}, {0, 10}}}} // [1,1,2,2]
			got, err := testutil.Exec1(b, []any{q, k, v, bias}, func(f compute.Function, params []compute.Value) (compute.Value, error) {
				cfg := &compute.ScaledDotProductAttentionConfig{Bias: params[3], Scale: 1.0, Causal: true}
				out, _, err := f.FusedScaledDotProductAttention(params[0], params[1], params[2], compute.AttentionAxesLayoutBHSD, cfg)
				return out, err
			})
			if err != nil && compute.IsNotImplemented(err) {
				t.Skipf("Skipping for %q, these parameters not supported: %v", b, err)
			}
			if err != nil {
				t.Fatalf("SDPA bias+causal failed: %+v", err)
			}
			// q0: causal -> only k0 -> output=10. q1: softmax([1,11]) -> weight on k1 ~ 1/(1+e^-10).
			softmaxQ1K1 := float32(1.0 / (1.0 + math.Exp(-10)))
			softmaxQ1K0 := 1 - softmaxQ1K1
			wantQ1 := float32(softmaxQ1K0*10 + softmaxQ1K1*20)
			want := [][][][]float32{{{{10}, {wantQ1}}}}
			if ok, diff := testutil.IsInDelta(want, got, 0.01); !ok {
				t.Errorf("SDPA bias+causal mismatch:\n%s", diff)
			}
		})

		t.Run("Bias_BF16", func(t *testing.T) {
			// bf16 additive bias through the fused path. D=8 (cuDNN needs hidden dim multiple of 8).
			// q=k=ones so raw scores are equal; a strong bias toward key 1 pulls both query outputs to
			// v[1]=20. This is the half-precision path cuDNN actually fuses; the f32 cases above skip here.
			bf16 := bfloat16.FromFloat32
			onesX8 := xslices.SliceWithValue(8, bf16(1))
			tensX8 := xslices.SliceWithValue(8, bf16(10))
			twentyX8 := xslices.SliceWithValue(8, bf16(20))
			q := [][][][]bfloat16.BFloat16{{{onesX8, onesX8}}}   // [1,1,2,8]
			k := [][][][]bfloat16.BFloat16{{{onesX8, onesX8}}}   // [1,1,2,8]
			v := [][][][]bfloat16.BFloat16{{{tensX8, twentyX8}}} // [1,1,2,8]
			// Bias [1,1,2,2]: both queries strongly favor key 1.
			bias := [][][][]bfloat16.BFloat16{{{
				{bf16(-100), bf16(100)},
				{bf16(-100), bf16(100)},
			}}}
			got, err := testutil.Exec1(b, []any{q, k, v, bias}, func(f compute.Function, params []compute.Value) (compute.Value, error) {
				cfg := &compute.ScaledDotProductAttentionConfig{Bias: params[3], Scale: 1.0, Causal: false}
				out, _, err := f.FusedScaledDotProductAttention(params[0], params[1], params[2], compute.AttentionAxesLayoutBHSD, cfg)
				return out, err
			})
			if err != nil && compute.IsNotImplemented(err) {
				t.Skipf("Skipping for %q, these parameters not supported: %v", b, err)
			}
			if err != nil {
				t.Fatalf("SDPA bf16 bias failed: %+v", err)
			}
			want := [][][][]bfloat16.BFloat16{{{twentyX8, twentyX8}}}
			if ok, diff := testutil.IsInDelta(want, got, 0.05); !ok {
				t.Errorf("SDPA bf16 bias mismatch:\n%s", diff)
			}
		})
	})

	t.Run("FusedAttentionQKVProjection", func(t *testing.T) {
		testutil.SkipIfMissing(t, b, compute.OpTypeFusedAttentionQKVProjection)
		t.Run("2D", func(t *testing.T) {
			x := [][]float32{{1, 2, 3}}
			wQKV := [][]float32{{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}}
			bq := []float32{10, 20}
			bk := []float32{100}
			bv := []float32{1000}

			gotQ, gotK, gotV, err := testutil.Exec3(b, []any{x, wQKV, bq, bk, bv}, func(f compute.Function, params []compute.Value) (compute.Value, compute.Value, compute.Value, error) {
				return f.FusedAttentionQKVProjection(params[0], params[1], params[2], params[3], params[4], 2, 1)
			})
			if err != nil && compute.IsNotImplemented(err) {
				t.Skipf("Skipping for %q, these parameters not supported: %v", b, err)
			}
			if err != nil {
				t.Fatalf("QKV Projection failed: %+v", err)
			}

			if ok, diff := testutil.IsEqual([][]float32{{11, 22}}, gotQ); !ok {
				t.Errorf("Q mismatch:\n%s", diff)
			}
			if ok, diff := testutil.IsEqual([][]float32{{103}}, gotK); !ok {
				t.Errorf("K mismatch:\n%s", diff)
			}
			if ok, diff := testutil.IsEqual([][]float32{{1006}}, gotV); !ok {
				t.Errorf("V mismatch:\n%s", diff)
			}
		})

		t.Run("3D", func(t *testing.T) {
			x := [][][]float32{{{1, 2, 3}, {4, 5, 6}}}
			wQKV := [][]float32{{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}}
			bq := []float32{10, 20}
			bk := []float32{100}
			bv := []float32{1000}

			gotQ, gotK, gotV, err := testutil.Exec3(b, []any{x, wQKV, bq, bk, bv}, func(f compute.Function, params []compute.Value) (compute.Value, compute.Value, compute.Value, error) {
				return f.FusedAttentionQKVProjection(params[0], params[1], params[2], params[3], params[4], 2, 1)
			})
			if err != nil && compute.IsNotImplemented(err) {
				t.Skipf("Skipping for %q, these parameters not supported: %v", b, err)
			}
			if err != nil {
				t.Fatalf("QKV Projection 3D failed: %+v", err)
			}

			if ok, diff := testutil.IsEqual([][][]float32{{{11, 22}, {14, 25}}}, gotQ); !ok {
				t.Errorf("Q mismatch:\n%s", diff)
			}
			if ok, diff := testutil.IsEqual([][][]float32{{{103}, {106}}}, gotK); !ok {
				t.Errorf("K mismatch:\n%s", diff)
			}
			if ok, diff := testutil.IsEqual([][][]float32{{{1006}, {1015}}}, gotV); !ok {
				t.Errorf("V mismatch:\n%s", diff)
			}
		})

		t.Run("Dynamic", func(t *testing.T) {
			testutil.SkipIfMissingDynamicShapes(t, b)
			builder := b.Builder("fused_qkv_dynamic")
			mainFn := builder.Main()
			xShape := shapes.MakeDynamic(dtypes.Float32, []int{shapes.DynamicDim, shapes.DynamicDim, 3}, []string{"batch", "seq", ""})
			pX, _ := mainFn.Parameter("x", xShape, nil)
			pW, _ := mainFn.Parameter("w", shapes.Make(dtypes.Float32, 3, 4), nil)
			pBQ, _ := mainFn.Parameter("bq", shapes.Make(dtypes.Float32, 2), nil)
			pBK, _ := mainFn.Parameter("bk", shapes.Make(dtypes.Float32, 1), nil)
			pBV, _ := mainFn.Parameter("bv", shapes.Make(dtypes.Float32, 1), nil)
			q, k, v, err := mainFn.FusedAttentionQKVProjection(pX, pW, pBQ, pBK, pBV, 2, 1)
			if err != nil {
				t.Fatalf("FusedAttentionQKVProjection failed: %+v", err)
			}
			mainFn.Return([]compute.Value{q, k, v}, nil)
			exec, err := builder.Compile()
			if err != nil {
				t.Fatalf("Compile failed: %+v", err)
			}
			defer exec.Finalize()

			xVal := [][][]float32{{{1, 2, 3}, {4, 5, 6}}}
			wVal := [][]float32{{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}}
			bqVal := []float32{10, 20}
			bkVal := []float32{100}
			bvVal := []float32{1000}
			bufX, _ := testutil.ToBuffer(b, xVal)
			bufW, _ := testutil.ToBuffer(b, wVal)
			bufBQ, _ := testutil.ToBuffer(b, bqVal)
			bufBK, _ := testutil.ToBuffer(b, bkVal)
			bufBV, _ := testutil.ToBuffer(b, bvVal)
			outputs, err := exec.Execute([]compute.Buffer{bufX, bufW, bufBQ, bufBK, bufBV}, nil, 0)
			if err != nil {
				t.Fatalf("Execute failed: %+v", err)
			}
			gotQ, _ := testutil.FromBuffer(b, outputs[0])
			gotK, _ := testutil.FromBuffer(b, outputs[1])
			gotV, _ := testutil.FromBuffer(b, outputs[2])
			if ok, diff := testutil.IsEqual([][][]float32{{{11, 22}, {14, 25}}}, gotQ); !ok {
				t.Errorf("Dynamic Q mismatch:\n%s", diff)
			}
			if ok, diff := testutil.IsEqual([][][]float32{{{103}, {106}}}, gotK); !ok {
				t.Errorf("Dynamic K mismatch:\n%s", diff)
			}
			if ok, diff := testutil.IsEqual([][][]float32{{{1006}, {1015}}}, gotV); !ok {
				t.Errorf("Dynamic V mismatch:\n%s", diff)
			}
		})
	})
}
