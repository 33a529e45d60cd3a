package serve_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/credo-rl/credo/model"
	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/sample"
	"github.com/credo-rl/credo/serve"
	"github.com/credo-rl/credo/tokenizer"
)

// A tiny untrained policy served over HTTP and asked one question with a
// plain HTTP client. Its words are noise, but the protocol is real: the
// token counts come from the policy's tokenizer and model.
func Example() {
	tok, _ := tokenizer.NewBytes()
	m, err := model.New(model.Tiny(tok.VocabSize()), 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	srv := httptest.NewServer(serve.Handler(&policy.Policy{Model: m, Tok: tok}, serve.Options{}))
	defer srv.Close()

	body := `{"model": "credo", "messages": [{"role": "user", "content": "2+2="}],
		"temperature": 0, "max_tokens": 4, "n": 2}`
	resp, err := http.Post(srv.URL+"/v1/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	var c serve.Completion
	if err := json.NewDecoder(resp.Body).Decode(&c); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(resp.Status, c.Object, c.Model)
	fmt.Println("choices:", len(c.Choices), "greedy, so alike:", c.Choices[0].Message.Content == c.Choices[1].Message.Content)
	fmt.Println("prompt tokens:", c.Usage.PromptTokens, "(4 bytes + <|bos|><|user|> … <|assistant|>)")
	// Output:
	// 200 OK chat.completion credo
	// choices: 2 greedy, so alike: true
	// prompt tokens: 7 (4 bytes + <|bos|><|user|> … <|assistant|>)
}

// A forced generator (what tests use to script the policy) shows how the
// conversation becomes one prompt and how a stop sequence ends the content.
func Example_forcedOutput() {
	gen := func(ctx context.Context, prompt string, n int, c sample.Config) ([]sample.Response, error) {
		fmt.Printf("the policy reads %q\n", prompt)
		return []sample.Response{{Text: "Paris.\nQ:", Tokens: make([]int32, 9), Finish: sample.FinishStop}}, nil
	}
	srv := httptest.NewServer(serve.Handler(nil, serve.Options{Generate: gen}))
	defer srv.Close()

	body := `{"messages": [{"role": "system", "content": "Answer briefly."},
		{"role": "user", "content": "Capital of France?"}], "stop": "\nQ:"}`
	resp, err := http.Post(srv.URL+"/v1/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	var c serve.Completion
	if err := json.NewDecoder(resp.Body).Decode(&c); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%q finish_reason %s, %d completion tokens\n", c.Choices[0].Message.Content, c.Choices[0].FinishReason, c.Usage.CompletionTokens)
	// Output:
	// the policy reads "Answer briefly.\n\nCapital of France?"
	// "Paris." finish_reason stop, 9 completion tokens
}
