package remote

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/credo-rl/credo/internal/httpcall"
	"github.com/credo-rl/credo/reward"
)

var prompt = reward.Prompt{ID: "p1", Text: "Say yes."}

// server answers each request with handle(n, the decoded request), n
// counting from 1.
func server(t *testing.T, handle func(w http.ResponseWriter, n int, req request)) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req request
		body, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(body, &req); err != nil {
			t.Errorf("request %q: %v", body, err)
		}
		handle(w, int(n.Add(1)), req)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func newVerifier(t *testing.T, c Config, opts ...Option) *Verifier {
	t.Helper()
	v, err := New(c, opts...)
	if err != nil {
		t.Fatal(err)
	}
	v.sleep = func(ctx context.Context, _ time.Duration) error { return ctx.Err() } // no waiting in tests
	return v
}

type oneRecord struct{}

func (oneRecord) Record(p reward.Prompt) (json.RawMessage, bool) {
	return json.RawMessage(`{"want": "yes"}`), p.ID == "p1"
}

// A verifier's answer becomes the verdict; the request carries the prompt,
// the response and the record.
func TestVerify(t *testing.T) {
	srv, _ := server(t, func(w http.ResponseWriter, _ int, req request) {
		if req.PromptID != "p1" || req.Prompt != "Say yes." || string(req.Record) != `{"want":"yes"}` {
			t.Errorf("request %+v", req)
		}
		w.Write([]byte(`{"score": 1, "spans": [{"start": 0, "end": 3, "effect": "+"}, {"start": 4, "end": 5, "strength": 0.5}], "info": "Say yes.", "extra": 1}`))
	})
	v := newVerifier(t, Config{Name: "yes", URL: srv.URL + "/verify"}, WithRecords(oneRecord{}))
	d, err := v.Verify(context.Background(), prompt, "yes !")
	want := reward.Verdict{Score: 1, Info: "Say yes.", Spans: []reward.Span{{Start: 0, End: 3, Effect: reward.Raised}, {Start: 4, End: 5, Strength: 0.5}}}
	if err != nil || !equalVerdict(d, want) {
		t.Errorf("verdict %+v, %v", d, err)
	}
	if m := v.Metrics(); m["verifier/yes/requests"] != 1 || m["verifier/yes/verdicts"] != 1 || m["verifier/yes/errors"] != 0 {
		t.Errorf("metrics %v", m)
	}
}

func equalVerdict(a, b reward.Verdict) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// Failures cost a zero score with the reason and an error, counted:
// retried statuses and time-outs up to Retries, others at once.
func TestFailures(t *testing.T) {
	cases := []struct {
		name     string
		handle   func(w http.ResponseWriter, n int)
		requests int64
		want     string // in the error and the reason
		ok       bool
	}{
		{"nonsense", func(w http.ResponseWriter, _ int) { w.Write([]byte("yes!")) }, 1, "answered nonsense: not a JSON object", false},
		{"no score", func(w http.ResponseWriter, _ int) { w.Write([]byte(`{"info": "x"}`)) }, 1, `answered nonsense: no "score"`, false},
		{"span outside", func(w http.ResponseWriter, _ int) {
			w.Write([]byte(`{"score": 1, "spans": [{"start": 0, "end": 99}]}`))
		}, 1, "spans[0]: [0, 99) is not a byte range of the 3-byte response", false},
		{"bad request", func(w http.ResponseWriter, _ int) { http.Error(w, `{"error": "what?"}`, 400) }, 1, "server answered 400 Bad Request: what?", false},
		{"always 503", func(w http.ResponseWriter, _ int) { w.WriteHeader(503) }, 3, "gave up after 3 attempts: server answered 503", false},
		{"503 then ok", func(w http.ResponseWriter, n int) {
			if n < 3 {
				w.WriteHeader(503)
				return
			}
			w.Write([]byte(`{"score": 0.5}`))
		}, 3, "", true},
		{"slow", func(w http.ResponseWriter, _ int) {
			time.Sleep(300 * time.Millisecond)
			w.Write([]byte(`{"score": 1}`))
		}, 3, "request timed out", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv, n := server(t, func(w http.ResponseWriter, k int, _ request) { c.handle(w, k) })
			v := newVerifier(t, Config{Name: "q", URL: srv.URL, Timeout: 50 * time.Millisecond})
			d, err := v.Verify(context.Background(), prompt, "yes")
			if c.ok {
				if err != nil || d.Score != 0.5 {
					t.Fatalf("%+v, %v", d, err)
				}
			} else if err == nil || d.Score != 0 || !strings.Contains(err.Error(), c.want) || d.Reason != err.Error() {
				t.Fatalf("verdict %+v, err %v; want %q", d, err, c.want)
			}
			m := v.Metrics()
			if n.Load() != c.requests || m["verifier/q/requests"] != float64(c.requests) || m["verifier/q/retries"] != float64(c.requests-1) || (m["verifier/q/errors"] == 1) == c.ok {
				t.Errorf("%d requests, metrics %v", n.Load(), m)
			}
		})
	}
}

// A cancelled context ends Verify at once with the context's error.
func TestVerifyCancelled(t *testing.T) {
	srv, _ := server(t, func(w http.ResponseWriter, _ int, _ request) { time.Sleep(time.Second) })
	v := newVerifier(t, Config{Name: "q", URL: srv.URL})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := v.Verify(ctx, prompt, "r"); !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 500*time.Millisecond {
		t.Errorf("%v after %v", err, time.Since(start))
	}
}

// Check probes once: a verifier that is down or answers nonsense stops
// the start; one that answers is fine.
func TestCheck(t *testing.T) {
	good, _ := server(t, func(w http.ResponseWriter, _ int, _ request) { w.Write([]byte(`{"score": 0}`)) })
	bad, n := server(t, func(w http.ResponseWriter, _ int, _ request) { w.WriteHeader(500) })
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close()
	if err := newVerifier(t, Config{Name: "g", URL: good.URL}).Check(context.Background()); err != nil {
		t.Error(err)
	}
	for _, u := range []string{bad.URL, down.URL} {
		if err := newVerifier(t, Config{Name: "b", URL: u}).Check(context.Background()); err == nil || !strings.Contains(err.Error(), "verifier b at") {
			t.Errorf("%s: %v", u, err)
		}
	}
	if n.Load() != 1 {
		t.Errorf("check retried: %d requests", n.Load())
	}
}

func TestParseSpec(t *testing.T) {
	cases := []struct {
		spec string
		want Config
		err  string
	}{
		{"name=re,url=http://127.0.0.1:9/v", Config{Name: "re", URL: "http://127.0.0.1:9/v"}, ""},
		{"name=re,url=http://127.0.0.1:9/v,timeout=5s,retries=0,weight=2,concurrency=3,backoff=1s,seed=4",
			Config{Name: "re", URL: "http://127.0.0.1:9/v", Timeout: 5 * time.Second, Retries: -1, Weight: 2, Concurrency: 3, BackoffBase: time.Second, Seed: 4}, ""},
		{"name=re", Config{}, "url: required"},
		{"url=http://127.0.0.1:9", Config{}, "name: required"},
		{"name=re,url=ftp://h/x", Config{}, "want http:// or https://"},
		{"name=re,url=http://u:secret@127.0.0.1/x", Config{}, "user name or password"},
		{"name=re,url=http://h,timeout=-1s", Config{}, "want a positive duration"},
		{"name=re,url=http://h,retries=x", Config{}, "want a count"},
		{"name=re,url=http://h,colour=red", Config{}, "unknown key (known: name, url"},
		{"name=re,name=x,url=http://h", Config{}, "name given twice"},
		{"name=re,url", Config{}, "is not key=value"},
	}
	for _, c := range cases {
		got, err := ParseSpec(c.spec)
		if err == nil {
			_, err = New(got)
		}
		switch {
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("%s: %+v, %v", c.spec, got, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: %v, want %q", c.spec, err, c.err)
		case err != nil && strings.Contains(err.Error(), "secret"):
			t.Errorf("%s: the error shows the password: %v", c.spec, err)
		}
	}
	if v, err := reward.New("remote", "name=re,url=http://127.0.0.1:9/v"); err != nil || v.Name() != "re" {
		t.Errorf("reward.New: %v, %v", v, err)
	}
}

// ParseAnswer refuses what is not a verdict.
func TestParseAnswer(t *testing.T) {
	cases := []struct{ body, err string }{
		{`{"score": 1}`, ""},
		{`{"score": 0.25, "skip": true}`, ""},
		{`{"score": 1, "spans": [{"start": 2, "end": 2, "effect": "-"}]}`, ""},
		{``, "not a JSON object"},
		{`[1]`, "not a JSON object"},
		{`{"score": "1"}`, "not a JSON object"},
		{`{"score": 1} {"score": 2}`, "more than one JSON value"},
		{`{"score": null}`, `no "score"`},
		{`{"score": 1, "spans": [{"start": 3, "end": 2}]}`, "is not a byte range"},
		{`{"score": 1, "spans": [{"start": -1, "end": 2}]}`, "is not a byte range"},
		{`{"score": 1, "spans": [{"end": 2}]}`, `want "start" and "end"`},
		{`{"score": 1, "spans": [{"start": 0, "end": 1.5}]}`, "not a JSON object"},
		{`{"score": 1, "spans": [{"start": 0, "end": 1, "effect": "up"}]}`, `effect "up"`},
		{`{"score": 1, "spans": [{"start": 0, "end": 1, "strength": -1}]}`, "strength -1"},
		{`{"score": 1e999}`, "not a JSON object"},
	}
	for _, c := range cases {
		d, err := ParseAnswer([]byte(c.body), 4)
		if (c.err == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: %+v, %v; want %q", c.body, d, err, c.err)
		}
		if err == nil && d.Skip && d.Score != 0 {
			t.Errorf("%s: a skipped verdict scores %v", c.body, d.Score)
		}
	}
	if _, err := ParseAnswer([]byte(strings.Repeat(`{"score": 1, "x": "`, 1)+strings.Repeat("y", httpcall.MaxBody/2)), 1); err == nil {
		t.Error("a cut answer is fine")
	}
}

// FuzzParseAnswer: no answer panics, and an accepted one's spans lie
// within the response with a finite score.
func FuzzParseAnswer(f *testing.F) {
	for _, s := range []string{`{"score": 1}`, `{"score": 0, "spans": [{"start": 0, "end": 2, "effect": "+", "strength": 2}], "info": "i", "skip": false}`, `nonsense`, `{"score": 1, "spans": [{"start": 9, "end": 1}]}`} {
		f.Add([]byte(s), uint16(4))
	}
	f.Fuzz(func(t *testing.T, body []byte, n uint16) {
		d, err := ParseAnswer(body, int(n))
		if err != nil {
			return
		}
		for _, s := range d.Spans {
			if s.Start < 0 || s.Start > s.End || s.End > int(n) || s.Strength < 0 {
				t.Fatalf("span %+v of %d bytes from %q", s, n, body)
			}
		}
	})
}

// Build gives each verifier the task's records when it has them, and
// refuses two verifiers of one name.
func TestBuild(t *testing.T) {
	vs, err := Build([]string{"name=a,url=http://127.0.0.1:9/a", "name=b,url=http://127.0.0.1:9/b"}, oneRecord{})
	if err != nil || len(vs) != 2 || vs[0].(*Verifier).records == nil {
		t.Fatalf("%v, %v", vs, err)
	}
	if vs, err := Build([]string{"name=a,url=http://127.0.0.1:9/a"}, 42); err != nil || vs[0].(*Verifier).records != nil {
		t.Errorf("without records: %v, %v", vs, err)
	}
	if _, err := Build([]string{"name=a,url=http://127.0.0.1:9/a", "name=a,url=http://127.0.0.1:9/b"}, nil); err == nil || !strings.Contains(err.Error(), `a second verifier named "a"`) {
		t.Errorf("two of one name: %v", err)
	}
	if _, err := Build([]string{"name=a"}, nil); err == nil || !strings.Contains(err.Error(), `--verifier "name=a": verifier a: url: required`) {
		t.Errorf("no url: %v", err)
	}
}

// A response that is not valid UTF-8 is sent with '?' for each stray
// byte, so the verifier's byte offsets are the response's.
func TestByteForByte(t *testing.T) {
	for in, want := range map[string]string{"ok é": "ok é", "a\xffb": "a?b", "\xe2\x82": "??", "x\xc3": "x?"} {
		if got := byteForByte(in); got != want || len(got) != len(in) {
			t.Errorf("byteForByte(%q) = %q, want %q", in, got, want)
		}
	}
}
