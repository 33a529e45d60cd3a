package judge

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/credo-rl/credo/internal/httpcall"
)

func TestSlowServerTimesOut(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, req seenRequest, n int) {
		select { // far longer than the attempt's time-out
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	})
	c := testConfig(f)
	c.Timeout, c.MaxRetries = 40*time.Millisecond, 2
	j := newJudge(t, c)
	start := time.Now()
	v, err := j.Verify(context.Background(), prompt, "r")
	elapsed := time.Since(start)
	if !errors.Is(err, ErrTimeout) || v.Score != 0 || !strings.Contains(v.Reason, "timed out") {
		t.Fatalf("verdict %+v, err %v; want a time-out", v, err)
	}
	// 3 attempts × 40 ms plus tiny back-offs; 5 s would mean the time-out did not apply.
	if elapsed > 5*time.Second {
		t.Errorf("took %v", elapsed)
	}
	if metric(j, "requests") != 3 || metric(j, "retries") != 2 || metric(j, "errors") != 1 {
		t.Errorf("metrics %v", j.Metrics())
	}
}

func TestRateLimitedThenSuccess(t *testing.T) {
	cases := []struct {
		retryAfter string
		maxDelay   time.Duration
		wantDelay  time.Duration
	}{
		{"0", 10 * time.Second, 0},
		{"1", 10 * time.Second, time.Second},
		{"120", 5 * time.Second, 5 * time.Second}, // capped
		{"soon", 10 * time.Second, -1},            // unreadable: jittered back-off ≤ base
	}
	for _, c := range cases {
		t.Run("Retry-After "+c.retryAfter, func(t *testing.T) {
			f := newFake(t, func(w http.ResponseWriter, r *http.Request, req seenRequest, n int) {
				if n == 0 {
					w.Header().Set("Retry-After", c.retryAfter)
					http.Error(w, `{"error": {"message": "rate limited"}}`, http.StatusTooManyRequests)
					return
				}
				reply(w, answerJSON(0.5))
			})
			var delays []time.Duration
			var mu sync.Mutex
			cfg := testConfig(f)
			cfg.BackoffMax = c.maxDelay
			j := newJudge(t, cfg, recordSleeps(&delays, &mu))
			v, err := j.Verify(context.Background(), prompt, "r")
			if err != nil || v.Score != 0.5 {
				t.Fatalf("verdict %+v, err %v", v, err)
			}
			if len(delays) != 1 {
				t.Fatalf("delays %v", delays)
			}
			if c.wantDelay >= 0 && delays[0] != c.wantDelay || c.wantDelay < 0 && delays[0] > cfg.BackoffBase {
				t.Errorf("waited %v, want %v", delays[0], c.wantDelay)
			}
			if metric(j, "retries") != 1 || metric(j, "requests") != 2 || metric(j, "errors") != 0 {
				t.Errorf("metrics %v", j.Metrics())
			}
		})
	}
}

func TestServerErrorForever(t *testing.T) {
	t.Setenv("CREDO_TEST_JUDGE_KEY", "sk-test-very-secret")
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, req seenRequest, n int) {
		// A careless server that echoes the credentials in its error.
		http.Error(w, "internal error for "+r.Header.Get("Authorization"), http.StatusInternalServerError)
	})
	c := testConfig(f)
	c.APIKeyEnv, c.MaxRetries, c.BackoffBase, c.BackoffMax = "CREDO_TEST_JUDGE_KEY", 3, 100*time.Millisecond, time.Second
	var delays []time.Duration
	var mu sync.Mutex
	j := newJudge(t, c, recordSleeps(&delays, &mu))
	v, err := j.Verify(context.Background(), prompt, "r")
	var se *StatusError
	if !errors.As(err, &se) || se.Code != 500 {
		t.Fatalf("err = %v, want a StatusError 500", err)
	}
	if v.Score != 0 || !strings.Contains(v.Reason, "500") || !strings.Contains(v.Reason, "gave up after 4 attempts") {
		t.Errorf("verdict %+v", v)
	}
	for _, text := range []string{err.Error(), v.Reason, se.Message} {
		if strings.Contains(text, "very-secret") {
			t.Errorf("the key leaked: %q", text)
		}
	}
	if got := f.requests(); len(got) != 4 || got[0].Auth != "Bearer sk-test-very-secret" {
		t.Errorf("%d requests, first Authorization %q", len(got), got[0].Auth)
	}
	if metric(j, "retries") != 3 || metric(j, "errors") != 1 {
		t.Errorf("metrics %v", j.Metrics())
	}
	// Full jitter: retry n waits at most base·2^(n−1).
	for n, d := range delays {
		if ceil := c.BackoffBase << n; d < 0 || d > ceil {
			t.Errorf("retry %d waited %v, want within [0, %v]", n+1, d, ceil)
		}
	}
	// Nothing is cached from a failure: the next call asks again.
	j.Verify(context.Background(), prompt, "r")
	if got := len(f.requests()); got != 8 {
		t.Errorf("%d requests after a second call, want 8", got)
	}
}

func TestClientErrorIsNotRetried(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, req seenRequest, n int) {
		http.Error(w, `{"error": {"message": "model not found"}}`, http.StatusNotFound)
	})
	j := newJudge(t, testConfig(f))
	v, err := j.Verify(context.Background(), prompt, "r")
	var se *StatusError
	if !errors.As(err, &se) || se.Code != 404 || se.Message != "model not found" || v.Score != 0 {
		t.Fatalf("verdict %+v, err %v", v, err)
	}
	if len(f.requests()) != 1 {
		t.Errorf("a 404 was retried")
	}
}

func TestCancelDuringBackoff(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, req seenRequest, n int) {
		w.Header().Set("Retry-After", "30")
		w.WriteHeader(http.StatusServiceUnavailable)
	})
	c := testConfig(f)
	c.BackoffMax = time.Minute
	j := newJudge(t, c)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for len(f.requests()) == 0 {
			time.Sleep(time.Millisecond)
		}
		time.Sleep(10 * time.Millisecond) // into the 30 s wait
		cancel()
	}()
	v, err := j.Verify(ctx, prompt, "r")
	if !errors.Is(err, context.Canceled) || v.Score != 0 || v.Reason == "" {
		t.Fatalf("verdict %+v, err %v; want cancellation", v, err)
	}
}

func TestSchemaModes(t *testing.T) {
	rejecting := func(w http.ResponseWriter, r *http.Request, req seenRequest, n int) {
		if len(req.ResponseFormat) > 0 {
			http.Error(w, `{"error": {"message": "Unsupported parameter: 'response_format' of type json_schema"}}`, http.StatusBadRequest)
			return
		}
		reply(w, "Sure! "+answerJSON(0.9))
	}
	t.Run("auto falls back and remembers", func(t *testing.T) {
		f := newFake(t, rejecting)
		j := newJudge(t, testConfig(f))
		for i, want := range []int{2, 3} {
			v, err := j.Verify(context.Background(), prompt, fmt.Sprint(i))
			if err != nil || v.Score != 0.9 {
				t.Fatalf("verdict %+v, err %v", v, err)
			}
			if got := len(f.requests()); got != want {
				t.Errorf("after call %d: %d requests, want %d", i, got, want)
			}
		}
		if metric(j, "retries") != 0 {
			t.Errorf("the fallback counted as a retry: %v", j.Metrics())
		}
	})
	t.Run("on fails", func(t *testing.T) {
		f := newFake(t, rejecting)
		c := testConfig(f)
		c.SchemaMode = SchemaOn
		_, err := newJudge(t, c).Verify(context.Background(), prompt, "r")
		var se *StatusError
		if !errors.As(err, &se) || se.Code != 400 || !strings.Contains(se.Message, "response_format") {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("off never sends it", func(t *testing.T) {
		f := newFake(t, rejecting)
		c := testConfig(f)
		c.SchemaMode = SchemaOff
		if _, err := newJudge(t, c).Verify(context.Background(), prompt, "r"); err != nil || len(f.requests()) != 1 {
			t.Fatalf("err %v, %d requests", err, len(f.requests()))
		}
	})
	t.Run("another 400 is not a fallback", func(t *testing.T) {
		f := newFake(t, func(w http.ResponseWriter, r *http.Request, req seenRequest, n int) {
			http.Error(w, `{"error": {"message": "context length exceeded"}}`, http.StatusBadRequest)
		})
		_, err := newJudge(t, testConfig(f)).Verify(context.Background(), prompt, "r")
		if err == nil || len(f.requests()) != 1 {
			t.Fatalf("err %v, %d requests", err, len(f.requests()))
		}
	})
}

func TestBackoffDeterministic(t *testing.T) {
	seq := func(seed uint64) []time.Duration {
		j := newJudge(t, Config{URL: "http://x/v1", Model: "m", Seed: seed, BackoffBase: time.Second, BackoffMax: 10 * time.Second})
		var out []time.Duration
		for n := 1; n <= 8; n++ {
			d := j.backoff(n, 0, false)
			if ceil := min(time.Second<<(n-1), 10*time.Second); d < 0 || d > ceil {
				t.Errorf("retry %d: %v outside [0, %v]", n, d, ceil)
			}
			out = append(out, d)
		}
		return out
	}
	if a, b, c := seq(1), seq(1), seq(2); fmt.Sprint(a) != fmt.Sprint(b) || fmt.Sprint(a) == fmt.Sprint(c) {
		t.Errorf("seed 1: %v and %v; seed 2: %v", a, b, c)
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	cases := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"0", 0, true},
		{" 7 ", 7 * time.Second, true},
		{"99999999999999999", (1 << 20) * time.Second, true},
		{"-1", 0, false},
		{"1.5", 0, false},
		{"", 0, false},
		{"Thu, 02 Jan 2025 03:04:35 GMT", 30 * time.Second, true},
		{"Thu, 02 Jan 2025 03:00:00 GMT", 0, true}, // in the past
		{"tomorrow", 0, false},
	}
	for _, c := range cases {
		got, ok := httpcall.ParseRetryAfter(c.in, now)
		if got != c.want || ok != c.ok {
			t.Errorf("parseRetryAfter(%q) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestEndpoint(t *testing.T) {
	for in, want := range map[string]string{
		"http://h:8000/v1":                      "http://h:8000/v1/chat/completions",
		"http://h:8000/v1/":                     "http://h:8000/v1/chat/completions",
		"https://api.x.com/v1/chat/completions": "https://api.x.com/v1/chat/completions",
	} {
		if got := endpoint(in); got != want {
			t.Errorf("endpoint(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestUnreachableServer(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, req seenRequest, n int) {})
	c := testConfig(f)
	f.Close() // nothing listens there any more: every attempt is a connection error
	c.MaxRetries = 2
	j := newJudge(t, c)
	v, err := j.Verify(context.Background(), prompt, "r")
	var se *StatusError
	if err == nil || errors.As(err, &se) || !strings.Contains(err.Error(), "gave up after 3 attempts") || v.Score != 0 {
		t.Fatalf("verdict %+v, err %v", v, err)
	}
	if metric(j, "requests") != 3 || metric(j, "retries") != 2 {
		t.Errorf("metrics %v", j.Metrics())
	}
}
