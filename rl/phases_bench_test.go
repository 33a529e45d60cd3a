package rl

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/credo-rl/credo/model"
	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/run"
	"github.com/credo-rl/credo/task"
	"github.com/credo-rl/credo/tokenizer"
)

// coinTask is a benchmark task: two rewards that are a coin flip per
// response (a hash of its text), with toolcall's sizes (prompts of ~120
// bytes, blocks of ~80). With fair coins (odds 2) nearly every group
// varies in both and MRTPO replays every response; with odds 40 (a reward
// of 1 for one response in 40) about 18% of groups vary in a given reward,
// the share of (response, reward) pairs the MRTPO paper replayed (12–21%).
type coinTask struct{ odds uint64 }

func (t coinTask) Name() string { return fmt.Sprintf("benchcoin%d", t.odds) }
func (coinTask) Prompt(s task.Split, i int) task.Prompt {
	return task.Prompt{Text: fmt.Sprintf("%s question %d: %s", s, i, strings.Repeat("call the tool with these arguments ", 3))}
}
func (t coinTask) Rewards() []reward.Verifier {
	return []reward.Verifier{coin{0, t.odds}, coin{1, t.odds}}
}
func (coinTask) Demos(int, uint64, task.DemoConfig) []task.Demo { return nil }

type coin struct{ i, odds uint64 }

func (c coin) Name() string { return fmt.Sprintf("coin%d", c.i) }
func (c coin) Verify(_ context.Context, p task.Prompt, response string) (reward.Verdict, error) {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d%s", c.i, response)
	score := 0.0
	if h.Sum64()%c.odds == 0 {
		score = 1
	}
	return reward.Verdict{Score: score, Info: fmt.Sprintf("Coin %d for %.20s: %s", c.i, p.Text, strings.Repeat("heads or tails ", 4))}, nil
}

func init() {
	task.Register("benchcoin", func(task.Config) (task.Task, error) { return coinTask{odds: 2}, nil })
	task.Register("benchcoin40", func(task.Config) (task.Task, error) { return coinTask{odds: 40}, nil })
}

// BenchmarkStepPhases runs real training steps of the 1M preset (fresh
// weights, 8 prompts × G = 8) on the coin task, with gdpo and mrtpo, at
// 128 and 512 new tokens, and reports each phase's seconds per step
// (steps 2–3: step 1 compiles the graphs), replay's share of mrtpo's step
// and the share of (response, reward) pairs it replayed ("replayed-%").
// The mrtpo-rare runs use coins with odds 40 (see coinTask): the paper's
// share of replayed pairs. A fresh policy ends a response when it samples
// EOS (1 in 268 tokens), so responses average about 100 tokens at 128 and
// 230 at 512 (the "tokens" metric).
//
//	go test ./rl -run XXX -bench StepPhases -benchtime 1x
func BenchmarkStepPhases(b *testing.B) {
	tok, err := tokenizer.NewBytes()
	if err != nil {
		b.Fatal(err)
	}
	c := model.Small(tok.VocabSize())
	c.MaxPositionEmbeddings = 1024
	m, err := model.New(c, 7)
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	init := filepath.Join(dir, "policy")
	if err := (&policy.Policy{Model: m, Tok: tok}).Save(init); err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{128, 512} {
		for _, c := range []struct{ name, method, task string }{
			{"gdpo", "gdpo", "benchcoin"}, {"mrtpo", "mrtpo", "benchcoin"}, {"mrtpo-rare", "mrtpo", "benchcoin40"},
		} {
			b.Run(fmt.Sprintf("tokens=%d/%s", n, c.name), func(b *testing.B) {
				for i := range b.N {
					cfg := DefaultConfig()
					cfg.Task, cfg.Method, cfg.Init = c.task, c.method, init
					cfg.Out = filepath.Join(dir, fmt.Sprintf("%d-%s-%d-%d", n, c.name, i, rand.Int()))
					cfg.Steps, cfg.PromptsPerStep, cfg.Group, cfg.MaxTokens = 3, 8, 8, n
					cfg.EvalEvery, cfg.EvalPrompts, cfg.CheckpointEvery = 0, 0, 0
					tr := newTrainer(b, cfg, false)
					if err := tr.Run(context.Background()); err != nil {
						b.Fatal(err)
					}
					tr.Close()
					sum := map[string]float64{}
					lines, err := os.ReadFile(filepath.Join(cfg.Out, run.MetricsFile))
					if err != nil {
						b.Fatal(err)
					}
					for j, line := range strings.Split(strings.TrimSpace(string(lines)), "\n") {
						var mt map[string]any
						if err := json.Unmarshal([]byte(line), &mt); err != nil {
							b.Fatal(err)
						}
						if j == 0 {
							continue
						}
						for _, k := range []string{"time/step", "time/sample", "time/credit", "time/update", "response/length", "credit/replay/pairs"} {
							x, _ := mt[k].(float64)
							sum[k] += x / 2
						}
					}
					b.ReportMetric(sum["time/step"], "s/step")
					b.ReportMetric(sum["time/sample"], "sample-s")
					b.ReportMetric(sum["time/credit"], "credit-s")
					b.ReportMetric(sum["time/update"], "update-s")
					b.ReportMetric(100*sum["time/credit"]/sum["time/step"], "credit-%")
					b.ReportMetric(sum["response/length"], "tokens")
					b.ReportMetric(100*sum["credit/replay/pairs"], "replayed-%")
				}
			})
		}
	}
}
