package httpcall

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	cases := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"0", 0, true}, {" 7 ", 7 * time.Second, true}, {"99999999999999999", (1 << 20) * time.Second, true},
		{"-1", 0, false}, {"1.5", 0, false}, {"", 0, false}, {"tomorrow", 0, false},
		{"Thu, 02 Jan 2025 03:04:35 GMT", 30 * time.Second, true},
	}
	for _, c := range cases {
		if got, ok := ParseRetryAfter(c.in, now); got != c.want || ok != c.ok {
			t.Errorf("ParseRetryAfter(%q) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestBackoff(t *testing.T) {
	cases := []struct {
		n     int
		after time.Duration
		has   bool
		u     float64
		want  time.Duration
	}{
		{1, 0, false, 0.5, 50 * time.Millisecond},
		{3, 0, false, 1, 400 * time.Millisecond},
		{20, 0, false, 1, time.Second}, // capped
		{1, 5 * time.Second, true, 0.5, time.Second},
		{1, 200 * time.Millisecond, true, 0, 200 * time.Millisecond},
	}
	for _, c := range cases {
		if got := Backoff(c.n, 100*time.Millisecond, time.Second, c.after, c.has, c.u); got != c.want {
			t.Errorf("Backoff(%d, %v, %v, %v) = %v, want %v", c.n, c.after, c.has, c.u, got, c.want)
		}
	}
}

func TestNewStatusError(t *testing.T) {
	cases := []struct{ body, want string }{
		{`{"error": {"message": "bad key sk-1"}}`, "bad key [redacted]"},
		{`{"error": "overloaded"}`, "overloaded"},
		{`{"detail": "no"}`, "no"},
		{"plain " + strings.Repeat("x", 400), "plain " + strings.Repeat("x", 294) + "…"},
	}
	for _, c := range cases {
		if got := NewStatusError(500, []byte(c.body), "sk-1"); got.Message != c.want || got.Code != 500 {
			t.Errorf("%q: %+v", c.body, got)
		}
	}
}

// Post reads a bounded answer, names its own time-out, and passes the
// header it is given.
func TestPost(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/slow":
			time.Sleep(200 * time.Millisecond)
		case "/big":
			w.Write([]byte(strings.Repeat("x", MaxBody+1)))
		default:
			w.Write([]byte(r.Header.Get("X-Test") + r.Header.Get("Content-Type")))
		}
	}))
	defer srv.Close()
	ctx := context.Background()
	code, body, _, err := Post(ctx, srv.Client(), srv.URL+"/ok", http.Header{"X-Test": {"hi"}}, []byte("{}"), time.Second)
	if err != nil || code != 200 || string(body) != "hiapplication/json" {
		t.Errorf("ok: %d %q %v", code, body, err)
	}
	if _, _, _, err := Post(ctx, srv.Client(), srv.URL+"/slow", nil, nil, 20*time.Millisecond); !errors.Is(err, ErrTimeout) {
		t.Errorf("slow: %v", err)
	}
	if _, _, _, err := Post(ctx, srv.Client(), srv.URL+"/big", nil, nil, 5*time.Second); err == nil || !strings.Contains(err.Error(), "longer than") {
		t.Errorf("big: %v", err)
	}
}
