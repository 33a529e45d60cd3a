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
	fs := newFlagSet("sample", "Prints responses of a checkpoint to a prompt.", stderr)
	dir := fs.String("model", "", "checkpoint folder (config.json, model.safetensors, tokenizer) (required)")
	prompt := fs.String("prompt", "", "the prompt text (required)")
	n := fs.Int("n", 1, "responses to sample")
	fs.Float64Var(&c.Temperature, "temperature", c.Temperature, "sampling temperature (0 is greedy)")
	fs.Float64Var(&c.TopP, "top-p", c.TopP, "nucleus sampling: keep the most likely tokens up to this mass")
	fs.IntVar(&c.MaxTokens, "max-tokens", c.MaxTokens, "new tokens per response")
	fs.Uint64Var(&c.Seed, "seed", c.Seed, "sampling seed")
	stop := fs.String("stop", "", "stop sequences, separated by |")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *dir == "" || *prompt == "" {
		return usageError{fmt.Errorf("--model and --prompt are required")}
	}
	if *n < 1 {
		return usageError{fmt.Errorf("--n must be at least 1")}
	}
	if *stop != "" {
		c.Stop = strings.Split(*stop, "|")
	}
	p, err := policy.Load(*dir)
	if err != nil {
		return err
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
