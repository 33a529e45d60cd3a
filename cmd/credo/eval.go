package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"time"

	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/reward/remote"
	"github.com/credo-rl/credo/rollout"
	"github.com/credo-rl/credo/task"
	"github.com/credo-rl/credo/task/records"
)

// evalMaxErrors is the share of a reward's verdicts that may fail before
// eval exits 1: its mean would count the failures as zeros.
const evalMaxErrors = 0.2

func runEval(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("eval", "Evaluates a checkpoint on a task's test split: the mean of each reward,\n"+
		"greedy and (with --samples) sampled. Prints JSON. Failed verdicts (a judge that\n"+
		"cannot be reached, a verifier past its time limit) score 0, are counted under\n"+
		"\"errors\", and make eval exit 1 when more than 20% of a reward's verdicts fail.", stdout, stderr)
	backendFlag(fs)
	dir := fs.String("model", "", "model folder, or a run folder (its newest checkpoint) (required)")
	taskName := fs.String("task", "toolcall", "task whose test split to use (default: the one the model's warmup.json or run-config.json names, else toolcall)")
	taskSeed := fs.Uint64("task-seed", 0, "seed of the task's prompt generator and data (as in training)")
	difficulty := fs.String("difficulty", "", "the task's difficulty settings, key=value,… (as in training)")
	c := rollout.EvalConfig{Prompts: 64, MaxTokens: 128, Workers: 4, Timeout: 5 * time.Second, Seed: 1}
	fs.IntVar(&c.Prompts, "prompts", c.Prompts, "test prompts (the first N, the same every time)")
	fs.IntVar(&c.Samples, "samples", c.Samples, "sampled responses per prompt at temperature 1, besides the greedy one")
	fs.IntVar(&c.MaxTokens, "max-tokens", c.MaxTokens, "new tokens per response")
	fs.DurationVar(&c.Timeout, "verify-timeout", c.Timeout, "time limit per verdict (a verifier past it scores 0 and counts as failed)")
	fs.Uint64Var(&c.Seed, "seed", c.Seed, "sampling seed")
	var judges []string
	fs.ListVar(&judges, "judge", "add an LLM judge reward: name=…,url=…,model=… (repeatable)")
	var verifiers []string
	fs.ListVar(&verifiers, "verifier", verifierUsage)
	var src records.Source
	recordFlags(fs, &src)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dir == "" {
		return usageError{Err: errors.New("--model is required")}
	}
	if c.Prompts < 1 || c.MaxTokens < 1 || c.Samples < 0 || c.Timeout <= 0 {
		return usageError{Err: errors.New("--prompts and --max-tokens must be at least 1, --samples at least 0, --verify-timeout positive")}
	}
	folder, err := modelFolder(*dir)
	if err != nil {
		return usageError{Err: fmt.Errorf("--model: %w", err)}
	}
	tc := trainedOn{Task: *taskName, TaskSeed: *taskSeed, Difficulty: *difficulty, Source: src}
	if src.Records != "" {
		tc.Task = records.TaskName(src.Format)
	} else if err := chooseTask(folder, &tc, fs.Given, stderr); err != nil {
		return usageError{Err: fmt.Errorf("--model: %w", err)}
	}
	t, err := records.Build(ctx, tc.Task, tc.TaskSeed, tc.Difficulty, tc.Source, stderr)
	if err != nil {
		return usageError{Err: err}
	}
	if cl, ok := t.(io.Closer); ok {
		defer cl.Close()
	}
	extra, err := remote.Build(verifiers, t)
	if err != nil {
		return usageError{Err: err}
	}
	vs, err := task.Rewards(ctx, t, judges, extra...)
	if err != nil {
		return explain(fs, err)
	}
	p, err := policy.Load(folder)
	if err != nil {
		return usageError{Err: fmt.Errorf("--model: %w", err)}
	}
	res, err := rollout.Evaluate(ctx, p, t, vs, c)
	if err != nil {
		return err
	}
	out, _ := json.MarshalIndent(map[string]any{"task": tc.Task, "difficulty": tc.Difficulty, "model": folder, "prompts": c.Prompts, "rewards": res}, "", "  ")
	fmt.Fprintln(stdout, string(out))
	for _, k := range slices.Sorted(maps.Keys(res.Errors)) {
		fmt.Fprintf(stderr, "reward %s: %d of %d verdicts failed and scored 0 (last error: %s)\n", k, res.Errors[k], res.Verdicts[k], res.LastError[k])
	}
	if share, name := res.ErrorShare(); share > evalMaxErrors {
		return fmt.Errorf("%d of %d verdicts of reward %s failed, more than %.0f%%: its mean above counts them as zeros", res.Errors[name], res.Verdicts[name], name, 100*evalMaxErrors)
	}
	return nil
}
