package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/sample"
)

func runSample(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := sample.DefaultConfig()
	fs := newFlags("sample", "Prints responses of a checkpoint to a prompt.", stdout, stderr)
	dir := fs.String("model", "", "checkpoint folder (config.json, model.safetensors, tokenizer) (required)")
	prompt := fs.String("prompt", "", "the prompt text (required)")
	n := fs.Int("n", 1, "responses to sample")
	fs.FloatVar(&c.Temperature, "temperature", "", "sampling temperature (0 is greedy)")
	fs.FloatVar(&c.TopP, "top-p", "", "nucleus sampling: keep the most likely tokens up to this mass")
	fs.IntVar(&c.MaxTokens, "max-tokens", c.MaxTokens, "new tokens per response")
	fs.Uint64Var(&c.Seed, "seed", c.Seed, "sampling seed")
	stop := fs.String("stop", "", "stop sequences, separated by |")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dir == "" || *prompt == "" {
		return usageError{Err: fmt.Errorf("--model and --prompt are required")}
	}
	if *n < 1 {
		return usageError{Err: fmt.Errorf("--n must be at least 1")}
	}
	if c.Temperature < 0 || !(c.TopP > 0 && c.TopP <= 1) || c.MaxTokens < 1 {
		return usageError{Err: fmt.Errorf("--temperature must be ≥ 0, --top-p in (0, 1] and --max-tokens at least 1")}
	}
	if *stop != "" {
		c.Stop = strings.Split(*stop, "|")
	}
	p, err := policy.Load(*dir)
	if err != nil {
		return usageError{Err: fmt.Errorf("--model: %w", err)}
	}
	res, err := p.Generate(ctx, []string{*prompt}, *n, c)
	if err != nil {
		return err
	}
	for i, r := range res {
		fmt.Fprintf(stdout, "--- response %d (%d tokens, %s)\n%s\n", i+1, len(r.Tokens), r.Finish, r.Text)
	}
	return nil
}
