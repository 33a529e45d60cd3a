package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/credo-rl/credo/lab"
	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/replay"
	"github.com/credo-rl/credo/report"
)

func runFocus(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("focus", "Runs the focus diagnostic (lab.Focus) on a run's logged samples: how much can token\n"+
		"credit change an update? An advantage A_t moves token t's logits by A_t · (e_y − p_t),\n"+
		"so tokens sampled at p ≈ 1 barely move. For each reward whose verdicts quote spans,\n"+
		"and again over its failed verdicts, it prints the share on the quoted tokens of the\n"+
		"tokens, of a uniform advantage's logit update (GRPO, GDPO), of the run's logged\n"+
		"relevance (span, mrtpo) and of that relevance's update, with the mean gradient size\n"+
		"on the quoted tokens and on the others. When uniform is already near weighted,\n"+
		"placing the credit changes little. Use the checkpoint that sampled them: a\n"+
		"comparison's warm-up with the samples of step 1. Then the same as JSON.", stdout, stderr)
	backendFlag(fs)
	dir := fs.String("model", "", "checkpoint folder that sampled the responses (required; for step 1, the run's warm-up)")
	samplesPath := fs.String("samples", "", "a run folder or its samples.jsonl (required)")
	step := fs.Int("step", 1, "logged step whose samples to use (0: every step)")
	limit := fs.Int("max", 512, "at most this many samples (the first ones)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dir == "" || *samplesPath == "" {
		return usageError{Err: errors.New("--model and --samples are required")}
	}
	if *step < 0 || *limit < 1 {
		return usageError{Err: errors.New("--step must be ≥ 0 and --max ≥ 1")}
	}
	path := *samplesPath
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, "samples.jsonl")
	}
	f, err := os.Open(path)
	if err != nil {
		return usageError{Err: fmt.Errorf("--samples: %w", err)}
	}
	all, err := report.ParseSamples(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("--samples %s: %w", path, err)
	}
	var samples []report.Sample
	for _, s := range all {
		if (*step == 0 || s.Step == *step) && len(samples) < *limit {
			samples = append(samples, s)
		}
	}
	if len(samples) == 0 {
		return usageError{Err: fmt.Errorf("--samples %s: no sample logged at step %d", path, *step)}
	}
	p, err := policy.Load(*dir)
	if err != nil {
		return usageError{Err: fmt.Errorf("--model: %w", err)}
	}
	rep, err := lab.Focus(ctx, replay.New(p.Model, p.Tok, 32), p.Tok, samples)
	if err != nil {
		return err
	}
	fmt.Fprint(stdout, rep)
	js, _ := json.MarshalIndent(map[string]any{"model": *dir, "samples": path, "step": *step, "focus": rep}, "", "  ")
	fmt.Fprintln(stdout, string(js))
	return nil
}
