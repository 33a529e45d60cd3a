package serve_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/reward/judge"
	"github.com/credo-rl/credo/sample"
	"github.com/credo-rl/credo/serve"
)

// exchange is one request the server saw and the status it answered.
type exchange struct {
	Status    int
	HasFormat bool // the request carried response_format
	Model     string
}

// watch wraps h and records every exchange.
type watch struct {
	h  http.Handler
	mu sync.Mutex
	ex []exchange
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(c int) { w.status = c; w.ResponseWriter.WriteHeader(c) }

func (w *watch) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	var req struct {
		Model          string          `json:"model"`
		ResponseFormat json.RawMessage `json:"response_format"`
	}
	json.Unmarshal(body, &req)
	sw := &statusWriter{rw, 200}
	w.h.ServeHTTP(sw, r)
	w.mu.Lock()
	w.ex = append(w.ex, exchange{sw.status, len(req.ResponseFormat) > 0, req.Model})
	w.mu.Unlock()
}

func (w *watch) seen() []exchange {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]exchange(nil), w.ex...)
}

var paris = reward.Prompt{ID: "q1", Text: "What is the capital of France?"}

const parisAnswer = "The capital of France is Paris."

func newJudge(t *testing.T, srv *httptest.Server, c judge.Config) *judge.Judge {
	t.Helper()
	c.Name, c.URL = "quality", srv.URL+"/v1"
	if c.Model == "" {
		c.Model = "credo"
	}
	c.BackoffBase, c.BackoffMax = 1, 1 // no waiting between retries
	j, err := judge.New(c, judge.WithHTTPClient(srv.Client()))
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// TestJudgeAgainstUntrainedPolicy runs the real judge client against a
// real (untrained) model served here: every request reaches the model and
// is answered 200, the model's noise is no verdict, and the judge says so —
// score 0, a "malformed" reason, an error wrapping ErrMalformed — after
// asking twice.
func TestJudgeAgainstUntrainedPolicy(t *testing.T) {
	p := tinyPolicy(t, 2048) // the judge's rubric and protocol are ~1k bytes
	w := &watch{h: serve.Handler(p, serve.Options{})}
	srv := httptest.NewServer(w)
	defer srv.Close()
	j := newJudge(t, srv, judge.Config{MaxTokens: 12, MaxRetries: -1})

	v, err := j.Verify(context.Background(), paris, parisAnswer)
	if !errors.Is(err, judge.ErrMalformed) {
		t.Fatalf("Verify error %v, want one wrapping judge.ErrMalformed", err)
	}
	if v.Score != 0 || !strings.Contains(v.Reason, "malformed") || len(v.Spans) != 0 {
		t.Errorf("verdict %+v: want score 0, no spans, a reason saying malformed", v)
	}
	ex := w.seen()
	if len(ex) != 2 {
		t.Fatalf("server saw %d requests, want 2 (a malformed answer is asked once more): %+v", len(ex), ex)
	}
	for i, e := range ex {
		if e.Status != 200 || !e.HasFormat || e.Model != "credo" {
			t.Errorf("request %d: %+v; want 200, response_format sent (and ignored)", i, e)
		}
	}
	m := j.Metrics()
	if m["judge/quality/requests"] != 2 || m["judge/quality/retries"] != 1 || m["judge/quality/errors"] != 1 {
		t.Errorf("judge metrics %v", m)
	}
}

// TestJudgeParsesForcedVerdict: with the policy's output forced to a
// verdict, the judge parses a real score and locates its quotes, all
// through the server; the policy reads the judge's system and user
// messages as one prompt.
func TestJudgeParsesForcedVerdict(t *testing.T) {
	f := &forced{text: `{"score": 0.75, "evidence": [{"quote": "Paris", "effect": "+"}, {"quote": "Lyon", "effect": "-"}]}`, finish: sample.FinishEOS}
	p := tinyPolicy(t, 2048)
	srv := httptest.NewServer(serve.Handler(p, serve.Options{Generate: f.generate}))
	defer srv.Close()
	j := newJudge(t, srv, judge.Config{MaxTokens: 100})

	v, err := j.Verify(context.Background(), paris, parisAnswer)
	if err != nil {
		t.Fatal(err)
	}
	if v.Score != 0.75 || len(v.Spans) != 1 || parisAnswer[v.Spans[0].Start:v.Spans[0].End] != "Paris" {
		t.Errorf("verdict %+v: want score 0.75 and one span on Paris", v)
	}
	if !strings.Contains(v.Reason, "1 of 2 quotes not found") {
		t.Errorf("reason %q: the quote Lyon is not in the response", v.Reason)
	}
	seen := f.seen()
	if len(seen) != 1 {
		t.Fatalf("%d generations, want 1", len(seen))
	}
	pr := seen[0].Prompt
	if !strings.HasPrefix(pr, judge.BuiltinRubric) || !strings.Contains(pr, "\n\nJudge the response") || !strings.Contains(pr, parisAnswer) {
		t.Errorf("the policy read %q: want the rubric (system) then the judge's user message", pr)
	}
	if c := seen[0].Config; c.Temperature != 0 || c.MaxTokens != 100 {
		t.Errorf("judge's temperature and max_tokens arrived as %+v", c)
	}
}

// TestJudgeSchemaFallback: a strict server refuses response_format; the
// judge (auto mode) asks again without it and gets its verdict, and stops
// sending it; in "on" mode the judge reports the server's 400.
func TestJudgeSchemaFallback(t *testing.T) {
	f := &forced{text: "Sure! ```json\n{\"score\": 1, \"evidence\": [\"capital of France\"]}\n```", finish: sample.FinishEOS}
	w := &watch{h: serve.Handler(nil, serve.Options{StrictSchema: true, Generate: f.generate})}
	srv := httptest.NewServer(w)
	defer srv.Close()

	j := newJudge(t, srv, judge.Config{})
	v, err := j.Verify(context.Background(), paris, parisAnswer)
	if err != nil {
		t.Fatal(err)
	}
	if v.Score != 1 || len(v.Spans) != 1 {
		t.Errorf("verdict %+v", v)
	}
	if _, err := j.Verify(context.Background(), paris, "Paris."); err != nil {
		t.Fatal(err)
	}
	want := []exchange{{400, true, "credo"}, {200, false, "credo"}, {200, false, "credo"}}
	if got := w.seen(); !equalEx(got, want) {
		t.Errorf("exchanges %+v, want %+v", got, want)
	}

	on := newJudge(t, srv, judge.Config{SchemaMode: judge.SchemaOn})
	v, err = on.Verify(context.Background(), paris, parisAnswer)
	var se *judge.StatusError
	if !errors.As(err, &se) || se.Code != 400 || !strings.Contains(se.Message, "response_format") || v.Score != 0 {
		t.Errorf("schema on: verdict %+v, error %v; want a 400 StatusError naming response_format", v, err)
	}
}

func equalEx(a, b []exchange) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestJudgeErrorsFromServer: refusals reach the judge as status errors it
// does not retry — a wrong API key, an unknown model name, a prompt longer
// than the model's context — while the right key works.
func TestJudgeErrorsFromServer(t *testing.T) {
	f := &forced{text: `{"score": 0.5, "evidence": []}`, finish: sample.FinishEOS}
	t.Setenv("SERVE_TEST_KEY", "right")
	t.Setenv("SERVE_TEST_BAD_KEY", "wrong")
	keyed := httptest.NewServer(serve.Handler(nil, serve.Options{APIKey: "right", Generate: f.generate}))
	defer keyed.Close()
	short := httptest.NewServer(serve.Handler(tinyPolicy(t, 512), serve.Options{}))
	defer short.Close()

	tests := []struct {
		name string
		srv  *httptest.Server
		c    judge.Config
		code int
		msg  string
	}{
		{"right key", keyed, judge.Config{APIKeyEnv: "SERVE_TEST_KEY"}, 0, ""},
		{"wrong key", keyed, judge.Config{APIKeyEnv: "SERVE_TEST_BAD_KEY"}, 401, "API key"},
		{"unknown model", keyed, judge.Config{APIKeyEnv: "SERVE_TEST_KEY", Model: "gpt-4o"}, 404, `this server serves "credo"`},
		{"prompt too long", short, judge.Config{}, 400, "context of 512 tokens"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			j := newJudge(t, tc.srv, tc.c)
			v, err := j.Verify(context.Background(), paris, parisAnswer)
			if tc.code == 0 {
				if err != nil || v.Score != 0.5 {
					t.Errorf("verdict %+v, error %v", v, err)
				}
				return
			}
			var se *judge.StatusError
			if !errors.As(err, &se) || se.Code != tc.code || v.Score != 0 || v.Reason == "" {
				t.Fatalf("verdict %+v, error %v; want a %d status error", v, err, tc.code)
			}
			if !strings.Contains(se.Message, tc.msg) && !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %v does not say %q", err, tc.msg)
			}
			if m := j.Metrics(); m["judge/quality/requests"] != 1 {
				t.Errorf("%v requests: a client error is not retried", m["judge/quality/requests"])
			}
		})
	}
}

// TestJudgeCheckAgainstServeModel: the judge's start-up check against the
// real server: the right model and key pass; a wrong model name is named,
// with the one the server serves; a wrong key is refused (issue 14: a
// wrong model name gave 404 on every call, all scored 0).
func TestJudgeCheckAgainstServeModel(t *testing.T) {
	f := &forced{text: "OK", finish: sample.FinishEOS}
	t.Setenv("SERVE_TEST_KEY", "right")
	t.Setenv("SERVE_TEST_BAD_KEY", "wrong")
	srv := httptest.NewServer(serve.Handler(nil, serve.Options{APIKey: "right", Generate: f.generate}))
	defer srv.Close()
	for _, tc := range []struct {
		name string
		c    judge.Config
		want string
	}{
		{"right model", judge.Config{APIKeyEnv: "SERVE_TEST_KEY"}, ""},
		{"wrong model", judge.Config{APIKeyEnv: "SERVE_TEST_KEY", Model: "gpt-4o"}, `does not serve model "gpt-4o" (it serves: credo)`},
		{"wrong key", judge.Config{APIKeyEnv: "SERVE_TEST_BAD_KEY"}, "refused the request"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := newJudge(t, srv, tc.c).Check(context.Background())
			if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
				t.Errorf("Check: %v, want %q", err, tc.want)
			}
		})
	}
}
