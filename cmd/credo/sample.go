package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/sample"
	"github.com/credo-rl/credo/tokenizer"
)

// sampleHelp is sample's --help synopsis: what the prompt is, and why a
// response cannot start with a role token here.
const sampleHelp = "Prints responses of a checkpoint to a prompt.\n\n" +
	"--prompt is the user's message as plain text, worded as the task words its prompts\n" +
	"(slots, in bash: $'Add each pair, one line each:\\n1+2\\n3+4'; samples.jsonl's \"prompt\" fields are\n" +
	"such text). credo renders it with the model's chat template, as training does: the\n" +
	"byte tokenizer's <|bos|><|user|>PROMPT<|assistant|>, a Hugging Face tokenizer's own\n" +
	"(ChatML, Llama 3). Do not add the template yourself. The template's role tokens and\n" +
	"PAD are not sampled (a small policy whose embeddings are tied can echo the <|assistant|> it\n" +
	"has just read); --raw samples them too, as training does."

// roleTokens are the chat template's special tokens (those EncodePrompt
// adds around a prompt) and PAD, which only fills batches: none belongs in
// a response. EOS, which ends one, is left out.
func roleTokens(tok tokenizer.Tokenizer) []int32 {
	var ids []int32
	for _, id := range append(tok.EncodePrompt(""), tok.PAD()) {
		name := string(tok.TokenBytes(id))
		if sp, ok := tok.Special(name); ok && sp == id && id != tok.EOS() && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids
}

func runSample(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := sample.DefaultConfig()
	fs := newFlags("sample", sampleHelp, stdout, stderr)
	backendFlag(fs)
	dir := fs.String("model", "", "model folder (config.json, model.safetensors, tokenizer), or a run folder (its newest checkpoint) (required)")
	prompt := fs.String("prompt", "", "the user's prompt as plain text, as a task words it: credo adds the chat template (required)")
	raw := fs.Bool("raw", false, "sample the role tokens too (<|assistant|>, …), as training does")
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
	folder, err := modelFolder(*dir)
	if err != nil {
		return usageError{Err: fmt.Errorf("--model: %w", err)}
	}
	p, err := policy.Load(folder)
	if err != nil {
		return usageError{Err: fmt.Errorf("--model: %w", err)}
	}
	if !*raw {
		c.Suppress = roleTokens(p.Tok)
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
