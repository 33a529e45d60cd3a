package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/replay"
	"github.com/credo-rl/credo/task"
)

func runBlocks(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("blocks", "Runs the block diagnostic (replay.BlockDiagnostic) on any checkpoint: does the policy read\n"+
		"the rewards' information blocks that replay (MRTPO) adds and removes? On the task's\n"+
		"reference responses to its first --prompts test prompts, teacher-forced, it prints\n"+
		"the mean log-probability per token after the prompt alone, with its own blocks, with\n"+
		"another prompt's blocks and with a placebo block; right − wrong in nats per token;\n"+
		"and the mean Jensen–Shannon divergence of removing each block against that of adding\n"+
		"the placebo. Then the same as JSON. `credo sft` runs it at the end of a warm-up, and\n"+
		"`credo train --block-every N` during training; this runs it alone.", stdout, stderr)
	backendFlag(fs)
	dir := fs.String("model", "", "checkpoint folder (required)")
	taskName := fs.String("task", "toolcall", "task whose test split and reference responses to use (one that writes references: toolcall, sql, ifeval, arith, slots)")
	taskSeed := fs.Uint64("task-seed", 0, "seed of the task's prompt generator and data (as in training)")
	difficulty := fs.String("difficulty", "", "the task's difficulty settings, key=value,… (as in training)")
	prompts := fs.Int("prompts", 32, "test prompts (the first N; at least 2)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dir == "" {
		return usageError{Err: errors.New("--model is required")}
	}
	if *prompts < 2 {
		return usageError{Err: errors.New("--prompts must be at least 2 (wrong blocks come from another prompt)")}
	}
	t, err := task.Build(*taskName, *taskSeed, *difficulty)
	if err != nil {
		return usageError{Err: err}
	}
	p, err := policy.Load(*dir)
	if err != nil {
		return usageError{Err: fmt.Errorf("--model: %w", err)}
	}
	rep, err := replay.BlockDiagnostic(ctx, p, t, *prompts)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, rep)
	js, _ := json.MarshalIndent(map[string]any{"task": *taskName, "model": *dir, "blocks": rep}, "", "  ")
	fmt.Fprintln(stdout, string(js))
	return nil
}
