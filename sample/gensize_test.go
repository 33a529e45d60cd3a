package sample

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/credo-rl/credo/model"
	"github.com/credo-rl/credo/tokenizer"
)

// genSizes are BenchmarkGenerateSize's configs: the 1M and 10M presets on
// the byte vocabulary, and SmolLM2-135M's shape with its 49,152-token
// vocabulary (optim's bench135M; ids past the byte tokenizer's decode to
// nothing, which sampling tolerates).
var genSizes = map[string]func(vocab int) model.Config{
	"1M":  model.Small,
	"10M": model.Medium,
	"135M": func(int) model.Config {
		return model.Config{
			ModelType: "llama", VocabSize: 49152, HiddenSize: 576, IntermediateSize: 1536,
			NumHiddenLayers: 30, NumAttentionHeads: 9, NumKeyValueHeads: 3,
			MaxPositionEmbeddings: 8192, RopeTheta: 100000, RMSNormEps: 1e-5,
			TieWordEmbeddings: true, HiddenAct: "silu",
		}
	},
}

// BenchmarkGenerateSize measures KV-cache sampling as BenchmarkGenerate
// does (batch 64 = 8 prompts × G = 8, 128 new tokens, temperature 1) for
// the one config $CREDO_GEN_SIZE names (1M, 10M or 135M), on the backend
// $CREDO_BACKEND names; skipped when unset (scripts/bench-xla.sh and
// scripts/gpu-check.sh set both).
func BenchmarkGenerateSize(b *testing.B) {
	size := os.Getenv("CREDO_GEN_SIZE")
	if size == "" {
		b.Skip("CREDO_GEN_SIZE is unset")
	}
	newConfig, ok := genSizes[size]
	if !ok {
		b.Fatalf("CREDO_GEN_SIZE %q: want 1M, 10M or 135M", size)
	}
	tok, err := tokenizer.NewBytes()
	if err != nil {
		b.Fatal(err)
	}
	prompts := make([][]int32, 8)
	for i := range prompts {
		prompts[i] = tok.EncodePrompt(fmt.Sprintf("prompt %d: %040d", i, i))
	}
	c := newConfig(tok.VocabSize())
	m, err := model.New(c, 1)
	if err != nil {
		b.Fatal(err)
	}
	b.Run(fmt.Sprintf("%s-%dparams", size, c.NumParams()), func(b *testing.B) {
		sc := Config{MaxTokens: 128, Temperature: 1, TopP: 1, Seed: 1}
		tokens := 0
		for range b.N {
			res, err := Generate(context.Background(), m, tok, prompts, 8, sc)
			if err != nil {
				b.Fatal(err)
			}
			for _, r := range res {
				tokens += len(r.Tokens)
			}
		}
		b.ReportMetric(float64(tokens)/b.Elapsed().Seconds(), "tokens/s")
	})
}
