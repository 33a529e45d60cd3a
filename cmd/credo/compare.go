package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/credo-rl/credo/report"
	"github.com/credo-rl/credo/rl"
)

func runCompare(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := defaultCompare()
	fs := newFlagSet("compare", "Warms a policy up once, trains every method with every seed from it on the same\n"+
		"prompts, then prints the comparison table and writes report.html into --out.\n"+
		"Runs are ordinary run directories under --out/runs: an interrupted comparison\n"+
		"resumes, and finished runs are not run again.", stderr)
	compareFlags(fs, &c)
	if err := parse(fs, args); err != nil {
		return err
	}
	return compare(ctx, c, stdout, stderr)
}

// defaultCompare is the comparison `credo demo` runs, sized for minutes
// on 2 cores: a small policy, 4 prompts × 4 responses per step.
func defaultCompare() rl.CompareConfig {
	w := rl.DefaultWarmup()
	// A short warm-up (about 4 minutes): greedy decoding gets the format
	// right, sampling at temperature 1 only about two times in three, and
	// the calls are mostly wrong, so every reward has something left to learn.
	// 120 steps left sampled responses too broken for RL to start from.
	w.Steps, w.Peak, w.WarmupSteps = 160, 4e-3, 10
	t := rl.DefaultConfig()
	t.Steps, t.PromptsPerStep, t.Group, t.MaxTokens = 20, 4, 4, 128
	t.EvalEvery, t.EvalPrompts = 10, 32
	t.CheckpointEvery = 10
	return rl.CompareConfig{
		Methods: []string{"grpo", "gdpo", "span", "mrtpo"}, Seeds: 1,
		Threshold: 0.8, Window: 5, Warmup: w, Train: t,
	}
}

func compareFlags(fs *flag.FlagSet, c *rl.CompareConfig) {
	fs.StringVar(&c.Out, "out", c.Out, "comparison folder (required)")
	fs.Func("task", "task for warm-up and training (default "+c.Train.Task+")", func(s string) error {
		c.Train.Task, c.Warmup.Task = s, s
		return nil
	})
	fs.Func("task-seed", "seed of the task's prompt generator and data (default 0)", func(s string) error {
		var v uint64
		_, err := fmt.Sscan(s, &v)
		c.Train.TaskSeed, c.Warmup.TaskSeed = v, v
		return err
	})
	fs.Func("difficulty", "the task's difficulty settings, key=value,… (each task's keys: see README)", func(s string) error {
		c.Train.Difficulty, c.Warmup.Difficulty = s, s
		return nil
	})
	fs.Func("methods", "comma-separated credit methods (default "+strings.Join(c.Methods, ",")+")", func(s string) error {
		c.Methods = strings.Split(s, ",")
		return nil
	})
	fs.IntVar(&c.Seeds, "seeds", c.Seeds, "runs per method, with seeds 1..N")
	fs.Float64Var(&c.Threshold, "threshold", c.Threshold, "training reward whose moving mean counts as reached")
	fs.IntVar(&c.Window, "window", c.Window, "moving-mean window in steps")
	fs.StringVar(&c.Init, "init", c.Init, "reuse this warm-up checkpoint instead of making one")
	fs.StringVar(&c.Train.PRM, "prm", c.Train.PRM, "process reward model folder, for p2t")
	fs.IntVar(&c.Train.Steps, "steps", c.Train.Steps, "training steps per run")
	fs.IntVar(&c.Train.PromptsPerStep, "prompts", c.Train.PromptsPerStep, "prompts per step")
	fs.IntVar(&c.Train.Group, "group", c.Train.Group, "responses per prompt (G)")
	fs.IntVar(&c.Train.MaxTokens, "max-tokens", c.Train.MaxTokens, "new tokens per response")
	fs.Float64Var(&c.Train.Peak, "lr", c.Train.Peak, "RL learning rate")
	fs.Float64Var(&c.Train.Credit.Beta, "beta", c.Train.Credit.Beta, "placement β of the token-level methods")
	fs.IntVar(&c.Train.Credit.SpanWarmup, "span-warmup", c.Train.Credit.SpanWarmup, "span: steps over which β rises from 0")
	fs.IntVar(&c.Train.Credit.ReplayWarmup, "replay-warmup", c.Train.Credit.ReplayWarmup, "mrtpo: steps over which β rises from 0")
	fs.IntVar(&c.Train.EvalEvery, "eval-every", c.Train.EvalEvery, "steps between test-split evaluations")
	fs.IntVar(&c.Train.EvalPrompts, "eval-prompts", c.Train.EvalPrompts, "test prompts per evaluation")
	fs.Func("train-config", "JSON or YAML file of training settings (as in a run's config.json) applied before these flags", func(path string) error {
		return rl.LoadConfigFile(path, &c.Train)
	})
	fs.StringVar(&c.Warmup.Size, "warmup-size", c.Warmup.Size, "warm-up model size: tiny, small or medium")
	fs.IntVar(&c.Warmup.Steps, "warmup-steps", c.Warmup.Steps, "warm-up optimizer steps")
	fs.IntVar(&c.Warmup.Batch, "warmup-batch", c.Warmup.Batch, "warm-up sequences per step")
	fs.Float64Var(&c.Warmup.Peak, "warmup-lr", c.Warmup.Peak, "warm-up peak learning rate")
	fs.IntVar(&c.Warmup.Demos, "demos", c.Warmup.Demos, "warm-up demonstrations")
	fs.Float64Var(&c.Warmup.Demo.DefaultFlawRate, "flaw-rate", c.Warmup.Demo.DefaultFlawRate, "share of demonstrations that break each reward")
	fs.Float64Var(&c.Warmup.Demo.BlockRate, "block-rate", c.Warmup.Demo.BlockRate, "share of demonstrations whose prompt carries information blocks")
}

// compare runs a comparison, then prints its table and writes its report.
func compare(ctx context.Context, c rl.CompareConfig, stdout, stderr io.Writer) error {
	if c.Out == "" {
		return usageError{fmt.Errorf("--out is required")}
	}
	var opts []rl.Option
	if c.Train.PRM != "" {
		inf, err := loadPRM(c.Train.PRM)
		if err != nil {
			return err
		}
		opts = append(opts, rl.WithPRM(inf))
	}
	if err := rl.Compare(ctx, c, stderr, opts...); err != nil {
		return err
	}
	cmp, err := report.LoadCompare(c.Out)
	if err != nil {
		return err
	}
	path := filepath.Join(c.Out, "report.html")
	if err := report.Save(cmp, path); err != nil {
		return err
	}
	table := report.Markdown(report.Table(cmp))
	if err := writeText(filepath.Join(c.Out, "table.md"), table); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\n%s\nreport: %s\n", report.Text(report.Table(cmp)), path)
	return nil
}
