package policy_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/credo-rl/credo/model"
	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/sample"
	"github.com/credo-rl/credo/tokenizer"
)

// A policy is a model with its tokenizer, saved as one checkpoint folder
// that Load reads back; Generate takes prompt text.
func ExamplePolicy_Generate() {
	dir, _ := os.MkdirTemp("", "policy-example")
	defer os.RemoveAll(dir)
	tok, _ := tokenizer.NewBytes()
	m, err := model.New(model.Tiny(tok.VocabSize()), 1)
	if err != nil {
		panic(err)
	}
	if err := (&policy.Policy{Model: m, Tok: tok}).Save(filepath.Join(dir, "tiny")); err != nil {
		panic(err)
	}
	p, err := policy.Load(filepath.Join(dir, "tiny"))
	if err != nil {
		panic(err)
	}
	greedy := sample.Config{MaxTokens: 4, Temperature: 0, TopP: 1}
	res, err := p.Generate(context.Background(), []string{"hi", "2+2="}, 2, greedy)
	if err != nil {
		panic(err)
	}
	// Greedy decoding gives both responses of a prompt the same text.
	fmt.Println(len(res), res[2].Prompt, res[0].Text == res[1].Text, res[2].Text == res[3].Text)
	// Output: 4 1 true true
}
