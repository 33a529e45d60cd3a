package httpcall

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// MaxBody bounds the bytes read from one answer.
const MaxBody = 8 << 20

// ErrTimeout marks an attempt that ran past its own time limit.
var ErrTimeout = errors.New("request timed out")

// StatusError is an answer other than 200 OK. Message is the server's error
// text, shortened, with the API key (should a server echo it) removed.
type StatusError struct {
	Code    int
	Message string
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("server answered %d %s: %s", e.Code, http.StatusText(e.Code), e.Message)
}

// Retryable says whether a status is worth another attempt: rate limits
// and server faults pass, a client error repeats itself.
func Retryable(code int) bool { return code == http.StatusTooManyRequests || code >= 500 }

// Post sends one attempt: payload as JSON to url with the header's fields,
// within timeout, reading at most MaxBody bytes of the answer. An error
// means no status was received (network, time-out: then it wraps
// ErrTimeout, unless ctx itself ended).
func Post(ctx context.Context, client *http.Client, url string, header http.Header, payload []byte, timeout time.Duration) (int, []byte, http.Header, error) {
	actx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	hr, err := http.NewRequestWithContext(actx, http.MethodPost, url, bytes.NewReader(payload))
	if err != nil {
		return 0, nil, nil, fmt.Errorf("build request: %w", err)
	}
	for k, vs := range header {
		hr.Header[k] = vs
	}
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("Accept", "application/json")
	resp, err := client.Do(hr)
	if err != nil {
		return 0, nil, nil, attemptError(ctx, actx, err, timeout)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxBody+1))
	if err != nil {
		return 0, nil, nil, attemptError(ctx, actx, fmt.Errorf("read answer: %w", err), timeout)
	}
	if len(body) > MaxBody {
		return 0, nil, nil, fmt.Errorf("answer longer than %d bytes", MaxBody)
	}
	return resp.StatusCode, body, resp.Header, nil
}

// attemptError names an attempt's own time-out as such; other errors pass.
func attemptError(ctx, actx context.Context, err error, timeout time.Duration) error {
	if ctx.Err() == nil && errors.Is(actx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("%w after %v", ErrTimeout, timeout)
	}
	return err
}

// NewStatusError extracts the server's message (OpenAI's
// {"error":{"message"}}, or {"error": "…"}, {"message"}, {"detail"}, else
// the raw body), at most 300 bytes, with key (when not empty) redacted.
func NewStatusError(code int, body []byte, key string) *StatusError {
	msg := strings.TrimSpace(string(body))
	var e struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  any             `json:"detail"`
	}
	if json.Unmarshal(body, &e) == nil {
		var inner struct {
			Message string `json:"message"`
		}
		var s string
		switch {
		case json.Unmarshal(e.Error, &inner) == nil && inner.Message != "":
			msg = inner.Message
		case json.Unmarshal(e.Error, &s) == nil && s != "":
			msg = s
		case e.Message != "":
			msg = e.Message
		case e.Detail != nil:
			msg = fmt.Sprint(e.Detail)
		}
	}
	if key != "" {
		msg = strings.ReplaceAll(msg, key, "[redacted]")
	}
	return &StatusError{Code: code, Message: Head(msg, 300)}
}

// Head is s cut to at most n bytes, with "…" when cut.
func Head(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// ParseRetryAfter reads a Retry-After header: delay-seconds or an HTTP date.
func ParseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n < 0 {
			return 0, false
		}
		return time.Duration(min(n, 1<<20)) * time.Second, true // clamp before multiplying
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// Backoff is the wait before retry n ≥ 1: the server's Retry-After when it
// gave one (has), else u·min(maxWait, base·2^(n−1)) for a uniform draw u
// in [0, 1); never more than maxWait.
func Backoff(n int, base, maxWait, retryAfter time.Duration, has bool, u float64) time.Duration {
	if has {
		return min(retryAfter, maxWait)
	}
	ceil := base
	for i := 1; i < n && ceil < maxWait; i++ {
		ceil *= 2
	}
	ceil = min(ceil, maxWait)
	return time.Duration(u * float64(ceil))
}

// Sleep waits d or until ctx ends.
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
