package policy_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/credo-rl/credo/internal/shareddata"
	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/sample"
)

// BenchmarkGenerateReal samples a real pretrained model (the folder that
// CREDO_BENCH_MODEL names, such as SmolLM2-135M-Instruct imported by
// `credo import-gguf`) as scripts/bench_generate_hf.py samples it with
// transformers: 32 rows × 128 new tokens at temperature 1 (no top-p), the
// end token suppressed so that every row generates all 128, float32.
// "poem" is one chat-templated prompt × 32; "ifeval" the first 4 IFEval
// prompts × 8. The first run compiles the graphs and is not timed
// (-benchtime 3x: three timed runs after it).
//
//	CREDO_BENCH_MODEL=runs/smollm2 go test ./policy -run XXX -bench GenerateReal -benchtime 3x
func BenchmarkGenerateReal(b *testing.B) {
	p := realPolicy(b)
	sets := map[string]struct {
		prompts []string
		group   int
	}{"poem": {[]string{benchPoem}, 32}}
	if ifeval, err := ifevalPrompts(4); err == nil {
		sets["ifeval"] = struct {
			prompts []string
			group   int
		}{ifeval, 8}
	}
	for _, name := range []string{"poem", "ifeval"} {
		set, ok := sets[name]
		if !ok {
			continue
		}
		b.Run(name, func(b *testing.B) {
			c := sample.Config{MaxTokens: 128, Temperature: 1, TopP: 1, Seed: 1, Suppress: []int32{p.Tok.EOS()}}
			if _, err := p.Generate(context.Background(), set.prompts, set.group, sample.Config{MaxTokens: 2, Temperature: 1, TopP: 1}); err != nil {
				b.Fatal(err) // compiles prefill and decode outside the timing
			}
			tokens := 0
			b.ResetTimer()
			for range b.N {
				res, err := p.Generate(context.Background(), set.prompts, set.group, c)
				if err != nil {
					b.Fatal(err)
				}
				for _, r := range res {
					tokens += len(r.Tokens)
				}
			}
			b.ReportMetric(float64(tokens)/b.Elapsed().Seconds(), "tokens/s")
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/generation")
		})
	}
}

// benchPoem is the prompt issue 53 timed both samplers on.
const benchPoem = "Write a short poem about the sea. Do not use any commas."

// ifevalPrompts are the first n prompts of the shared IFEval data.
// realPolicy loads the real pretrained model CREDO_BENCH_MODEL names (a
// `credo import-gguf` folder of SmolLM2-135M-Instruct), skipping tb when
// it is unset.
func realPolicy(tb testing.TB) *policy.Policy {
	dir := os.Getenv("CREDO_BENCH_MODEL")
	if dir == "" {
		tb.Skip("CREDO_BENCH_MODEL is not set: no real model to run")
	}
	p, err := policy.Load(dir)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

func ifevalPrompts(n int) ([]string, error) {
	data, err := os.ReadFile(filepath.Join(shareddata.Dir(), "ifeval", "input_data.jsonl"))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		var rec struct {
			Prompt string `json:"prompt"`
		}
		if json.Unmarshal([]byte(line), &rec) == nil && rec.Prompt != "" {
			out = append(out, rec.Prompt)
		}
		if len(out) == n {
			break
		}
	}
	return out, nil
}
