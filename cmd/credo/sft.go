package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/credo-rl/credo/rl"
	"github.com/credo-rl/credo/run"
)

func runSFT(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := rl.DefaultWarmup()
	fs := newFlags("sft", "Warms a policy up on a task's demonstrations (loss on response tokens only) and\n"+
		"writes a checkpoint folder that `credo sample`, `credo eval` and `credo train` load.\n"+
		"--out must be new or empty unless --replace is given; nothing is written until the\n"+
		"warm-up has finished.", stdout)
	out := fs.String("out", "", "checkpoint folder to write (required)")
	replace := fs.Bool("replace", false, "overwrite --out if it already holds something (the old folder stays until the new one is complete)")
	warmupFlags(fs, &c)
	if err := fs.parse(args); err != nil {
		return err
	}
	if *out == "" {
		return usageError{errors.New("--out is required")}
	}
	if err := checkOut(*out, "out", *replace); err != nil {
		return err
	}
	if err := c.Validate(); err != nil {
		return fs.explain(&rl.ConfigError{Err: err})
	}
	_, rep, err := rl.WarmUp(ctx, c, *out, stderr)
	if err != nil {
		if ctx.Err() != nil {
			return interrupted{fmt.Sprintf("\ninterrupted: a warm-up keeps no checkpoint, so nothing was written to %s.\nrun the same command again to start it over: credo sft %s", *out, shellQuote(args))}
		}
		return fs.explain(err)
	}
	if err := run.WriteJSON(filepath.Join(*out, run.WarmupFile), rl.WarmupRecord{Config: c, Report: rep}); err != nil {
		return err
	}
	js, _ := json.MarshalIndent(rep.Eval, "", "  ")
	fmt.Fprintf(stdout, "wrote %s (loss %.3f, %d tokens in %.0fs)\nheld-out next-token accuracy on responses: %.3f before, %.3f after\ntest-split rewards: %s\n",
		*out, rep.FinalLoss, rep.Tokens, rep.Seconds, rep.HeldOutBefore, rep.HeldOutAfter, js)
	return nil
}

// warmupFlags binds the warm-up settings to flags and their warmup.json
// keys, defaults shown in --help.
func warmupFlags(fs *flags, c *rl.WarmupConfig) {
	fs.stringVar(&c.Task, "task", "task", "task whose demonstrations to learn (toolcall, sql, ifeval, arith)")
	fs.Uint64Var(&c.TaskSeed, "task-seed", c.TaskSeed, "seed of the task's prompt generator and data")
	fs.stringVar(&c.Difficulty, "difficulty", "difficulty", "the task's difficulty settings, key=value,… (each task's keys: see README)")
	fs.key("task-seed", "task_seed")
	fs.stringVar(&c.Size, "size", "size", "fresh model size: tiny, small (~1M parameters) or medium (~10M)")
	fs.stringVar(&c.Init, "init", "init", "start from this checkpoint folder instead of fresh weights")
	fs.intVar(&c.Demos, "demos", "demos", "demonstrations to draw (cycled in shuffled epochs)")
	fs.intVar(&c.Steps, "steps", "steps", "optimizer steps")
	fs.intVar(&c.Batch, "batch", "batch", "sequences per step")
	fs.floatVar(&c.Peak, "lr", "lr", "peak learning rate (linear warm-up, then cosine decay)")
	fs.intVar(&c.WarmupSteps, "lr-warmup", "lr_warmup_steps", "learning-rate warm-up steps")
	fs.floatVar(&c.MinRatio, "lr-min-ratio", "lr_min_ratio", "final learning rate as a share of the peak")
	fs.floatVar(&c.Optimizer.WeightDecay, "weight-decay", "optimizer.weight_decay", "AdamW decoupled weight decay (matrices only)")
	fs.floatVar(&c.Optimizer.ClipNorm, "clip-norm", "optimizer.clip_norm", "global gradient-norm clip (0 disables)")
	fs.floatVar(&c.Demo.DefaultFlawRate, "flaw-rate", "demo.DefaultFlawRate", "share of demonstrations that break each reward, so RL has something to fix")
	fs.floatVar(&c.Demo.BlockRate, "block-rate", "demo.BlockRate", "share of demonstrations whose prompt carries information blocks the response follows")
	fs.Uint64Var(&c.Seed, "seed", c.Seed, "seed of weights, demonstrations and batch order")
	fs.intVar(&c.Eval.Prompts, "eval-prompts", "eval.eval_prompts", "test-split prompts evaluated at the end (0 skips)")
	fs.intVar(&c.Eval.MaxTokens, "eval-max-tokens", "eval.eval_max_tokens", "new tokens per evaluation response")
}

// exists reports whether path exists.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
