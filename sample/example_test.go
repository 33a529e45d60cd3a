package sample_test

import (
	"context"
	"fmt"
	"slices"

	"github.com/credo-rl/credo/model"
	"github.com/credo-rl/credo/sample"
	"github.com/credo-rl/credo/tokenizer"
)

// Generate samples a group of responses per prompt with a KV cache; each
// comes back with its tokens, their byte ranges in the text and their
// log-probabilities. The same seed gives the same responses.
func ExampleGenerate() {
	ctx := context.Background()
	tok, _ := tokenizer.NewBytes()
	m, err := model.New(model.Tiny(tok.VocabSize()), 1)
	if err != nil {
		panic(err)
	}
	prompts := [][]int32{tok.EncodePrompt("2+2="), tok.EncodePrompt("hello")}
	c := sample.Config{MaxTokens: 6, Temperature: 1, TopP: 1, Seed: 7}
	res, err := sample.Generate(ctx, m, tok, prompts, 3, c) // 3 responses per prompt
	if err != nil {
		panic(err)
	}
	again, _ := sample.Generate(ctx, m, tok, prompts, 3, c)
	r := res[4] // the second response to the second prompt
	fmt.Println(len(res), r.Prompt, len(r.Tokens) == len(r.LogProbs), len(r.Tokens) == len(r.Offsets))
	fmt.Println(slices.Equal(r.Tokens, again[4].Tokens), r.Finish == sample.FinishLength || r.Finish == sample.FinishEOS)
	// Output:
	// 6 1 true true
	// true true
}
