package serve_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/credo-rl/credo/model"
	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/sample"
	"github.com/credo-rl/credo/tokenizer"
)

// tinyPolicy is an untrained byte-level policy with the given context.
func tinyPolicy(t testing.TB, context int) *policy.Policy {
	t.Helper()
	tok, err := tokenizer.NewBytes()
	if err != nil {
		t.Fatal(err)
	}
	c := model.Tiny(tok.VocabSize())
	c.MaxPositionEmbeddings = context
	m, err := model.New(c, 7)
	if err != nil {
		t.Fatal(err)
	}
	return &policy.Policy{Model: m, Tok: tok}
}

// call is one generation the forced generator saw.
type call struct {
	Prompt string
	N      int
	Config sample.Config
}

// forced is a scripted generator: it records each call and answers every
// choice with text, finish and one token per byte (EOS added for "eos").
type forced struct {
	text   string
	finish sample.Finish
	err    error

	mu    sync.Mutex
	calls []call
}

func (f *forced) generate(ctx context.Context, prompt string, n int, c sample.Config) ([]sample.Response, error) {
	f.mu.Lock()
	f.calls = append(f.calls, call{prompt, n, c})
	f.mu.Unlock()
	if f.err != nil {
		return nil, f.err
	}
	out := make([]sample.Response, n)
	for i := range out {
		toks := len(f.text)
		if f.finish == sample.FinishEOS {
			toks++
		}
		out[i] = sample.Response{Prompt: 0, Text: f.text, Tokens: make([]int32, toks), Finish: f.finish}
	}
	return out, nil
}

func (f *forced) seen() []call {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]call(nil), f.calls...)
}

// reply is a decoded answer: status, headers and the body as JSON.
type reply struct {
	Status int
	Header http.Header
	Body   []byte
}

// apiErr is the error object of an answer.
type apiErr struct {
	Message string  `json:"message"`
	Type    string  `json:"type"`
	Param   *string `json:"param"`
	Code    *string `json:"code"`
}

func (r reply) err(t *testing.T) apiErr {
	t.Helper()
	var b struct {
		Error *apiErr `json:"error"`
	}
	if err := json.Unmarshal(r.Body, &b); err != nil || b.Error == nil {
		t.Fatalf("status %d: body is not an OpenAI error: %s (%v)", r.Status, r.Body, err)
	}
	return *b.Error
}

func do(t *testing.T, c *http.Client, method, url, body string, header ...string) reply {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); len(b) > 0 && ct != "application/json" {
		t.Errorf("Content-Type %q, want application/json", ct)
	}
	return reply{resp.StatusCode, resp.Header, bytes.TrimSpace(b)}
}
