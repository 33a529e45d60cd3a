package serve_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/credo-rl/credo/sample"
	"github.com/credo-rl/credo/serve"
)

// judgeLikeBody is the size and shape of a judge request.
var judgeLikeBody = `{"model": "credo", "temperature": 0, "max_tokens": 16, "messages": [
	{"role": "system", "content": "` + strings.Repeat("Score the response. ", 50) + `"},
	{"role": "user", "content": "Judge the response to the prompt below. <prompt>What is 2+2?</prompt> <response>4</response>"}],
	"response_format": {"type": "json_schema", "json_schema": {"name": "v", "schema": {"type": "object"}}}}`

// BenchmarkOverhead is the server's own cost per request (parse, render,
// count the prompt's tokens, queue, encode), the generation forced.
func BenchmarkOverhead(b *testing.B) {
	answer := []sample.Response{{Text: `{"score": 1, "evidence": []}`, Tokens: make([]int32, 29), Finish: sample.FinishEOS}}
	h := serve.Handler(tinyPolicy(b, 2048), serve.Options{Generate: func(context.Context, string, int, sample.Config) ([]sample.Response, error) {
		return answer, nil
	}})
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("POST", "/v1/chat/completions", strings.NewReader(judgeLikeBody)))
		if w.Code != 200 {
			b.Fatalf("status %d: %s", w.Code, w.Body)
		}
	}
}

// BenchmarkTinyPolicy is a whole judge-sized request answered by the real
// tiny model: ~1.1k prompt tokens prefilled, 16 generated greedily.
func BenchmarkTinyPolicy(b *testing.B) {
	h := serve.Handler(tinyPolicy(b, 2048), serve.Options{})
	for b.Loop() {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("POST", "/v1/chat/completions", strings.NewReader(judgeLikeBody)))
		if w.Code != 200 {
			b.Fatalf("status %d: %s", w.Code, w.Body)
		}
	}
}
