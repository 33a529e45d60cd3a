package policy_test

import (
	"context"
	"fmt"
	"math"
	"sort"
	"testing"

	"github.com/credo-rl/credo/sample"
	"github.com/gomlx/compute/dtypes/bfloat16"
	"github.com/gomlx/compute/dtypes/float16"
)

// TestSixteenBitWeightsLogProbs measures what storing a real model's
// weights in 16 bits (bf16 or f16, float32 arithmetic) would do to the
// log-probs RL's ratio reads: responses are sampled from the float32
// weights (the first 4 IFEval prompts × 4, 64 tokens, temperature 1),
// then every response token's log-prob is computed with the float32
// weights and with the same weights rounded to bf16 and to f16. It logs
// the mean, 99th percentile and largest |Δ log p| and the share of tokens
// whose ratio exp(Δ) leaves PPO's clip range [0.8, 1.2], and fails when
// bf16 moves the mean by more than 0.05 nats or f16 by more than 0.01.
// It needs the model folder CREDO_BENCH_MODEL names (a `credo
// import-gguf` folder of SmolLM2-135M-Instruct) and is skipped without it:
//
//	CREDO_BENCH_MODEL=runs/smollm2 go test ./policy -run SixteenBit -v
func TestSixteenBitWeightsLogProbs(t *testing.T) {
	p := realPolicy(t)
	prompts, err := ifevalPrompts(4)
	if err != nil {
		t.Skip(err)
	}
	ctx := context.Background()
	res, err := p.Generate(ctx, prompts, 4, sample.Config{MaxTokens: 64, Temperature: 1, TopP: 1, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var seqs [][]int32
	var from []int // each sequence's first response token
	for _, r := range res {
		ids := p.Tok.EncodePrompt(prompts[r.Prompt])
		seqs = append(seqs, append(append([]int32{}, ids...), r.Tokens...))
		from = append(from, len(ids))
	}
	base, err := p.Model.LogProbs(ctx, seqs)
	if err != nil {
		t.Fatal(err)
	}
	f32 := p.Model.ParamData()
	for _, tc := range []struct {
		name  string
		round func(float32) float32
		limit float64
	}{
		{"bf16", func(x float32) float32 { return bfloat16.FromFloat32(x).Float32() }, 0.05},
		{"f16", func(x float32) float32 { return float16.FromFloat32(x).Float32() }, 0.01},
	} {
		rounded := make([][]float32, len(f32))
		for i, w := range f32 {
			rounded[i] = make([]float32, len(w))
			for j, x := range w {
				rounded[i][j] = tc.round(x)
			}
		}
		if err := p.Model.SetParamData(rounded); err != nil {
			t.Fatal(err)
		}
		got, err := p.Model.LogProbs(ctx, seqs)
		if err != nil {
			t.Fatal(err)
		}
		var d []float64
		clipped := 0
		for i := range seqs {
			for k := from[i] - 1; k < len(base[i]); k++ { // logp[k] is token k+1's
				x := math.Abs(float64(got[i][k] - base[i][k]))
				d = append(d, x)
				if r := math.Exp(float64(got[i][k] - base[i][k])); r < 0.8 || r > 1.2 {
					clipped++
				}
			}
		}
		sort.Float64s(d)
		mean := 0.0
		for _, x := range d {
			mean += x / float64(len(d))
		}
		t.Logf("%s weights: %d response tokens, |Δ log p| mean %.4f, p99 %.4f, max %.4f; ratio outside [0.8, 1.2]: %d (%.2f%%)",
			tc.name, len(d), mean, d[len(d)*99/100], d[len(d)-1], clipped, 100*float64(clipped)/float64(len(d)))
		if mean > tc.limit {
			t.Errorf("%s: mean |Δ log p| %.4f, more than %g", tc.name, mean, tc.limit)
		}
	}
	if err := p.Model.SetParamData(f32); err != nil {
		t.Fatal(fmt.Errorf("restore: %w", err))
	}
}
