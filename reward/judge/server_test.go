package judge

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// seenRequest is what the fake server decoded from one request.
type seenRequest struct {
	Model          string          `json:"model"`
	Messages       []message       `json:"messages"`
	Temperature    *float64        `json:"temperature"`
	MaxTokens      int             `json:"max_tokens"`
	ResponseFormat json.RawMessage `json:"response_format"`
	Auth           string          `json:"-"`
	Path           string          `json:"-"`
	Method         string          `json:"-"`
}

// fake is an OpenAI-compatible chat-completions server for tests. Each
// request is decoded and recorded, then answered by handle (n counts
// requests from 0).
type fake struct {
	*httptest.Server
	mu     sync.Mutex
	seen   []seenRequest
	handle func(w http.ResponseWriter, r *http.Request, req seenRequest, n int)
}

func newFake(t testing.TB, handle func(w http.ResponseWriter, r *http.Request, req seenRequest, n int)) *fake {
	t.Helper()
	f := &fake{handle: handle}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req seenRequest
		if err := json.Unmarshal(body, &req); err != nil {
			http.Error(w, "bad request body: "+err.Error(), http.StatusBadRequest)
			return
		}
		req.Auth, req.Path, req.Method = r.Header.Get("Authorization"), r.URL.Path, r.Method
		f.mu.Lock()
		n := len(f.seen)
		f.seen = append(f.seen, req)
		f.mu.Unlock()
		f.handle(w, r, req, n)
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *fake) requests() []seenRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]seenRequest(nil), f.seen...)
}

// reply writes a 200 chat completion whose message content is text.
func reply(w http.ResponseWriter, text string) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"id": "cmpl-1", "object": "chat.completion", "model": "m",
		"choices": []any{map[string]any{
			"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": text},
		}},
	})
}

// answerJSON is a protocol answer with the given score and quotes.
func answerJSON(score float64, quotes ...string) string {
	ev := []map[string]string{}
	for i, q := range quotes {
		ev = append(ev, map[string]string{"quote": q, "effect": [2]string{"+", "-"}[i%2]})
	}
	b, _ := json.Marshal(map[string]any{"score": score, "evidence": ev})
	return string(b)
}

// testConfig points at f with short time limits so failures are quick.
func testConfig(f *fake) Config {
	return Config{
		Name: "helpful", URL: f.URL + "/v1", Model: "judge-model",
		Timeout: 5 * time.Second, BackoffBase: time.Millisecond, BackoffMax: 5 * time.Millisecond,
	}
}

func newJudge(t *testing.T, c Config, opts ...Option) *Judge {
	t.Helper()
	j, err := New(c, opts...)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return j
}

// recordSleeps replaces the back-off wait with a recorder that does not wait.
func recordSleeps(delays *[]time.Duration, mu *sync.Mutex) Option {
	return withSleep(func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		*delays = append(*delays, d)
		mu.Unlock()
		return ctx.Err()
	})
}

func metric(j *Judge, name string) float64 { return j.Metrics()["judge/"+j.Name()+"/"+name] }

// waitFor polls cond until it holds, failing the test after 5 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}
