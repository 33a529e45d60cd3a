package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/rl"
	"github.com/credo-rl/credo/task"
)

func runEval(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("eval", "Evaluates a checkpoint on a task's test split: the mean of each reward,\n"+
		"greedy and (with --samples) sampled. Prints JSON.", stderr)
	dir := fs.String("model", "", "checkpoint folder (required)")
	taskName := fs.String("task", "toolcall", "task whose test split to use")
	taskSeed := fs.Uint64("task-seed", 0, "seed of the task's prompt generator and data (as in training)")
	c := rl.EvalConfig{Prompts: 64, MaxTokens: 128, Workers: 4, Timeout: 5 * time.Second, Seed: 1}
	fs.IntVar(&c.Prompts, "prompts", c.Prompts, "test prompts (the first N, the same every time)")
	fs.IntVar(&c.Samples, "samples", c.Samples, "sampled responses per prompt at temperature 1, besides the greedy one")
	fs.IntVar(&c.MaxTokens, "max-tokens", c.MaxTokens, "new tokens per response")
	fs.Uint64Var(&c.Seed, "seed", c.Seed, "sampling seed")
	var judges []string
	fs.Var(&listFlag{&judges}, "judge", "add an LLM judge reward: name=…,url=…,model=… (repeatable)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *dir == "" {
		return usageError{fmt.Errorf("--model is required")}
	}
	if c.Prompts < 1 || c.MaxTokens < 1 || c.Samples < 0 {
		return usageError{fmt.Errorf("--prompts and --max-tokens must be at least 1, --samples at least 0")}
	}
	t, err := task.New(*taskName, task.Config{Seed: *taskSeed})
	if err != nil {
		return usageError{err}
	}
	vs := t.Rewards()
	for _, spec := range judges {
		v, err := reward.New("judge", spec)
		if err != nil {
			return usageError{fmt.Errorf("--judge %s: %w", spec, err)}
		}
		vs = append(vs, v)
	}
	p, err := policy.Load(*dir)
	if err != nil {
		return err
	}
	res, err := rl.Evaluate(ctx, p, t, vs, c)
	if err != nil {
		return err
	}
	out, _ := json.MarshalIndent(map[string]any{"task": *taskName, "model": *dir, "prompts": c.Prompts, "rewards": res}, "", "  ")
	fmt.Fprintln(stdout, string(out))
	return nil
}
