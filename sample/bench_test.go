package sample

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"github.com/credo-rl/credo/model"
	"github.com/credo-rl/credo/tokenizer"
)

// BenchmarkGenerate measures sampling throughput at batch 64 (8 prompts ×
// G = 8) and 128 new tokens, with the KV cache and with a full re-run per
// token, for the ~1M and ~10M presets. The prompts are 48 bytes; EOS is
// suppressed by sampling from an untrained model for all 128 tokens
// (responses that end early are not counted as generated).
//
//	go test ./sample -run XXX -bench Generate -benchtime 1x
func BenchmarkGenerate(b *testing.B) {
	tok, err := tokenizer.NewBytes()
	if err != nil {
		b.Fatal(err)
	}
	prompts := make([][]int32, 8)
	for i := range prompts {
		prompts[i] = tok.EncodePrompt(fmt.Sprintf("prompt %d: %040d", i, i))
	}
	for _, size := range []struct {
		name string
		c    model.Config
	}{{"1M", model.Small(tok.VocabSize())}, {"10M", model.Medium(tok.VocabSize())}} {
		m, err := model.New(size.c, 1)
		if err != nil {
			b.Fatal(err)
		}
		for _, mode := range []struct {
			name string
			gen  func(context.Context, *model.Model, tokenizer.Tokenizer, [][]int32, int, Config) ([]Response, error)
		}{
			{"cache", func(ctx context.Context, m *model.Model, tok tokenizer.Tokenizer, p [][]int32, g int, c Config) ([]Response, error) {
				return Generate(ctx, m, tok, p, g, c)
			}},
			{"rerun", func(ctx context.Context, m *model.Model, tok tokenizer.Tokenizer, p [][]int32, g int, c Config) ([]Response, error) {
				return GenerateNoCache(ctx, m, tok, p, g, c)
			}},
		} {
			b.Run(size.name+"/"+mode.name, func(b *testing.B) {
				c := Config{MaxTokens: 128, Temperature: 1, TopP: 1, Seed: 1}
				tokens := 0
				var peak uint64
				for range b.N {
					res, err := mode.gen(context.Background(), m, tok, prompts, 8, c)
					if err != nil {
						b.Fatal(err)
					}
					for _, r := range res {
						tokens += len(r.Tokens)
					}
					var ms runtime.MemStats
					runtime.ReadMemStats(&ms)
					peak = max(peak, ms.HeapSys)
				}
				b.ReportMetric(float64(tokens)/b.Elapsed().Seconds(), "tokens/s")
				b.ReportMetric(float64(peak)/(1<<20), "heap-MiB")
			})
		}
	}
}
