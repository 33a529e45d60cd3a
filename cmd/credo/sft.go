package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/credo-rl/credo/rl"
	"github.com/credo-rl/credo/run"
)

func runSFT(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := rl.DefaultWarmup()
	fs := newFlagSet("sft", "Warms a policy up on a task's demonstrations (loss on response tokens only) and\n"+
		"writes a checkpoint folder that `credo sample`, `credo eval` and `credo train` load.", stderr)
	out := fs.String("out", "", "checkpoint folder to write (required)")
	warmupFlags(fs, &c)
	if err := parse(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return usageError{fmt.Errorf("--out is required")}
	}
	_, rep, err := rl.WarmUp(ctx, c, *out, stderr)
	if err != nil {
		return err
	}
	if err := run.WriteJSON(filepath.Join(*out, run.WarmupFile), rl.WarmupRecord{Config: c, Report: rep}); err != nil {
		return err
	}
	js, _ := json.MarshalIndent(rep.Eval, "", "  ")
	fmt.Fprintf(stdout, "wrote %s (loss %.3f, %d tokens in %.0fs)\nheld-out next-token accuracy on responses: %.3f before, %.3f after\ntest-split rewards: %s\n",
		*out, rep.FinalLoss, rep.Tokens, rep.Seconds, rep.HeldOutBefore, rep.HeldOutAfter, js)
	if rep.Blocks != nil {
		fmt.Fprintln(stdout, rep.Blocks)
	}
	return nil
}

// warmupFlags binds the warm-up settings to flags, defaults shown in --help.
func warmupFlags(fs *flag.FlagSet, c *rl.WarmupConfig) {
	fs.StringVar(&c.Task, "task", c.Task, "task whose demonstrations to learn (toolcall, sql, ifeval, arith)")
	fs.Uint64Var(&c.TaskSeed, "task-seed", c.TaskSeed, "seed of the task's prompt generator and data")
	fs.StringVar(&c.Size, "size", c.Size, "fresh model size: tiny, small (~1M parameters) or medium (~10M)")
	fs.StringVar(&c.Init, "init", c.Init, "start from this checkpoint folder instead of fresh weights")
	fs.IntVar(&c.Demos, "demos", c.Demos, "demonstrations to draw (cycled in shuffled epochs)")
	fs.IntVar(&c.Steps, "steps", c.Steps, "optimizer steps")
	fs.IntVar(&c.Batch, "batch", c.Batch, "sequences per step")
	fs.Float64Var(&c.Peak, "lr", c.Peak, "peak learning rate (linear warm-up, then cosine decay)")
	fs.IntVar(&c.WarmupSteps, "lr-warmup", c.WarmupSteps, "learning-rate warm-up steps")
	fs.Float64Var(&c.MinRatio, "lr-min-ratio", c.MinRatio, "final learning rate as a share of the peak")
	fs.Float64Var(&c.Optimizer.WeightDecay, "weight-decay", c.Optimizer.WeightDecay, "AdamW decoupled weight decay (matrices only)")
	fs.Float64Var(&c.Optimizer.ClipNorm, "clip-norm", c.Optimizer.ClipNorm, "global gradient-norm clip (0 disables)")
	fs.Float64Var(&c.Demo.DefaultFlawRate, "flaw-rate", c.Demo.DefaultFlawRate, "share of demonstrations that break each reward, so RL has something to fix")
	fs.Float64Var(&c.Demo.BlockRate, "block-rate", c.Demo.BlockRate, "share of demonstrations whose prompt carries information blocks the response follows")
	fs.Uint64Var(&c.Seed, "seed", c.Seed, "seed of weights, demonstrations and batch order")
	fs.IntVar(&c.Eval.Prompts, "eval-prompts", c.Eval.Prompts, "test-split prompts evaluated at the end (0 skips)")
	fs.IntVar(&c.Eval.MaxTokens, "eval-max-tokens", c.Eval.MaxTokens, "new tokens per evaluation response")
}
