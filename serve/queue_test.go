package serve

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/credo-rl/credo/sample"
)

// gate is a generator that holds each generation until released, and
// counts how many run at once.
type gate struct {
	entered  chan string   // the prompt of each generation that starts
	release  chan struct{} // one receive lets one generation finish
	calls    atomic.Int64
	inFlight atomic.Int64
	most     atomic.Int64
}

func newGate() *gate {
	return &gate{entered: make(chan string, 16), release: make(chan struct{})}
}

func (g *gate) generate(ctx context.Context, prompt string, n int, c sample.Config) ([]sample.Response, error) {
	g.calls.Add(1)
	now := g.inFlight.Add(1)
	defer g.inFlight.Add(-1)
	for m := g.most.Load(); now > m && !g.most.CompareAndSwap(m, now); m = g.most.Load() {
	}
	g.entered <- prompt
	select {
	case <-g.release:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return []sample.Response{{Text: "re: " + prompt, Tokens: make([]int32, 3), Finish: sample.FinishEOS}}, nil
}

// result is an answer's status and content (or the client's error).
type result struct {
	status  int
	content string
	retry   string
	err     error
}

// post sends a one-message request in the background.
func post(ctx context.Context, srv *httptest.Server, prompt string) <-chan result {
	out := make(chan result, 1)
	go func() {
		body := `{"messages": [{"role": "user", "content": "` + prompt + `"}]}`
		req, _ := http.NewRequestWithContext(ctx, "POST", srv.URL+"/v1/chat/completions", strings.NewReader(body))
		resp, err := srv.Client().Do(req)
		if err != nil {
			out <- result{err: err}
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		var c Completion
		json.Unmarshal(b, &c)
		r := result{status: resp.StatusCode, retry: resp.Header.Get("Retry-After")}
		if len(c.Choices) > 0 {
			r.content = c.Choices[0].Message.Content
		}
		out <- r
	}()
	return out
}

// waitFor polls cond until it holds (a synchronization, not a timing test:
// the deadline only turns a hang into a failure).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
	}
}

func startGated(t *testing.T, o Options) (*server, *gate, *httptest.Server) {
	g := newGate()
	o.Generate = g.generate
	s := Handler(nil, o).(*server)
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return s, g, srv
}

// TestSerialized: a second request waits while the first generates, then
// runs; both succeed and never overlap.
func TestSerialized(t *testing.T) {
	s, g, srv := startGated(t, Options{})
	a := post(context.Background(), srv, "first")
	if p := <-g.entered; p != "first" {
		t.Fatalf("generating %q", p)
	}
	b := post(context.Background(), srv, "second")
	waitFor(t, "the second request to queue", func() bool { return s.pending.Load() == 2 })
	if n := g.calls.Load(); n != 1 {
		t.Fatalf("%d generations while the first holds the model", n)
	}
	g.release <- struct{}{}
	if r := <-a; r.status != 200 || r.content != "re: first" {
		t.Errorf("first: %+v", r)
	}
	if p := <-g.entered; p != "second" {
		t.Fatalf("generating %q", p)
	}
	g.release <- struct{}{}
	if r := <-b; r.status != 200 || r.content != "re: second" {
		t.Errorf("second: %+v", r)
	}
	if m := g.most.Load(); m != 1 {
		t.Errorf("%d generations at once, want 1", m)
	}
	waitFor(t, "the queue to empty", func() bool { return s.pending.Load() == 0 })
}

// TestQueueFull: beyond MaxQueue waiting requests, a request is refused at
// once with 503 and Retry-After, without reaching the model.
func TestQueueFull(t *testing.T) {
	for _, tc := range []struct {
		name    string
		queue   int
		waiters int
	}{{"one may wait", 1, 1}, {"none may wait", -1, 0}, {"three may wait", 3, 3}} {
		t.Run(tc.name, func(t *testing.T) {
			s, g, srv := startGated(t, Options{MaxQueue: tc.queue})
			first := post(context.Background(), srv, "p0")
			<-g.entered
			var waiting []<-chan result
			for i := range tc.waiters {
				waiting = append(waiting, post(context.Background(), srv, "w"))
				waitFor(t, "a waiter to queue", func() bool { return s.pending.Load() == int64(i+2) })
			}
			r := <-post(context.Background(), srv, "refused")
			if r.status != 503 || r.retry != "1" {
				t.Errorf("over the queue: %+v, want 503 with Retry-After 1", r)
			}
			if n := g.calls.Load(); n != 1 {
				t.Errorf("%d generations, want 1", n)
			}
			g.release <- struct{}{}
			if r := <-first; r.status != 200 {
				t.Errorf("first: %+v", r)
			}
			for i, w := range waiting {
				<-g.entered
				g.release <- struct{}{}
				if r := <-w; r.status != 200 {
					t.Errorf("waiter %d: %+v", i, r)
				}
			}
		})
	}
}

// TestCancelWhileQueued: a waiting request whose client gives up leaves the
// queue without generating, and the model's turn is not lost.
func TestCancelWhileQueued(t *testing.T) {
	s, g, srv := startGated(t, Options{})
	first := post(context.Background(), srv, "first")
	<-g.entered
	ctx, cancel := context.WithCancel(context.Background())
	queued := post(ctx, srv, "impatient")
	waitFor(t, "the second request to queue", func() bool { return s.pending.Load() == 2 })
	cancel()
	if r := <-queued; r.err == nil {
		t.Errorf("cancelled request answered %+v", r)
	}
	waitFor(t, "the cancelled request to leave the queue", func() bool { return s.pending.Load() == 1 })
	g.release <- struct{}{}
	if r := <-first; r.status != 200 {
		t.Errorf("first: %+v", r)
	}
	third := post(context.Background(), srv, "third")
	if p := <-g.entered; p != "third" {
		t.Errorf("generating %q after the cancelled request, want third", p)
	}
	g.release <- struct{}{}
	if r := <-third; r.status != 200 || r.content != "re: third" {
		t.Errorf("third: %+v", r)
	}
	if n := g.calls.Load(); n != 2 {
		t.Errorf("%d generations, want 2: the cancelled request never generates", n)
	}
}

// TestCancelWhileGenerating: the generation sees the client's cancellation
// through its context, and the next request gets the model.
func TestCancelWhileGenerating(t *testing.T) {
	s, g, srv := startGated(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	gone := post(ctx, srv, "gone")
	<-g.entered
	cancel()
	if r := <-gone; r.err == nil {
		t.Errorf("cancelled request answered %+v", r)
	}
	waitFor(t, "the model to be free", func() bool { return s.pending.Load() == 0 && g.inFlight.Load() == 0 })
	next := post(context.Background(), srv, "next")
	<-g.entered
	g.release <- struct{}{}
	if r := <-next; r.status != 200 {
		t.Errorf("next: %+v", r)
	}
}
