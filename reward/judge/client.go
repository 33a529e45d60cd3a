package judge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

// maxBody bounds the bytes read from one answer.
const maxBody = 8 << 20

// ErrTimeout marks an attempt that ran past Config.Timeout.
var ErrTimeout = errors.New("judge request timed out")

// StatusError is an answer other than 200 OK. Message is the server's error
// text, shortened, with the API key (should a server echo it) removed.
type StatusError struct {
	Code    int
	Message string
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("server answered %d %s: %s", e.Code, http.StatusText(e.Code), e.Message)
}

// retryable says whether a status is worth another attempt: rate limits
// and server faults pass, a client error repeats itself.
func retryable(code int) bool { return code == http.StatusTooManyRequests || code >= 500 }

// apiKey reads the key from the environment at request time, so a rotated
// key is picked up and the Config never holds it.
func (j *Judge) apiKey() (string, error) {
	if j.cfg.APIKeyEnv == "" {
		return "", nil
	}
	k := strings.TrimSpace(os.Getenv(j.cfg.APIKeyEnv))
	if k == "" {
		return "", fmt.Errorf("environment variable %s (the judge's API key) is empty or unset", j.cfg.APIKeyEnv)
	}
	return k, nil
}

// complete sends one chat completion, retrying on 429, 5xx, network errors
// and attempt time-outs, and returns choices[0].message.content. Retry n
// waits Retry-After when the server sent one, else a jittered back-off (see
// Config.BackoffBase); both are capped by BackoffMax.
func (j *Judge) complete(ctx context.Context, msgs []message) (string, error) {
	key, err := j.apiKey()
	if err != nil {
		return "", err
	}
	useSchema := j.useSchema()
	var last error
	for attempt := 0; ; {
		status, body, header, err := j.post(ctx, key, msgs, useSchema)
		if ctx.Err() != nil {
			if err == nil || errors.Is(err, ctx.Err()) {
				return "", ctx.Err()
			}
			return "", fmt.Errorf("%w (last attempt: %v)", ctx.Err(), err)
		}
		wait, hasWait := time.Duration(0), false
		switch {
		case err != nil:
			last = err
		case status == http.StatusOK:
			return content(body)
		case status == http.StatusBadRequest && useSchema && j.cfg.SchemaMode == SchemaAuto && mentionsSchema(body):
			// The server has no structured output: ask again without it, now
			// and for every later request. Not a retry: nothing failed.
			useSchema = false
			j.noSchema.Store(true)
			continue
		case retryable(status):
			last = statusError(status, body, key)
			wait, hasWait = parseRetryAfter(header.Get("Retry-After"), time.Now())
		default:
			return "", statusError(status, body, key)
		}
		if attempt >= j.cfg.retries() {
			return "", fmt.Errorf("gave up after %d attempts: %w", attempt+1, last)
		}
		attempt++
		j.m.retries.Add(1)
		if err := j.sleep(ctx, j.backoff(attempt, wait, hasWait)); err != nil {
			return "", fmt.Errorf("%w (while waiting to retry: %v)", err, last)
		}
	}
}

func (j *Judge) useSchema() bool {
	switch j.cfg.SchemaMode {
	case SchemaOn:
		return true
	case SchemaOff:
		return false
	}
	return !j.noSchema.Load()
}

// post sends one attempt under the concurrency bound and the attempt's
// time limit. An error means no status was received (network, time-out).
func (j *Judge) post(ctx context.Context, key string, msgs []message, useSchema bool) (int, []byte, http.Header, error) {
	req := chatRequest{Model: j.cfg.Model, Messages: msgs, Temperature: j.cfg.Temperature, MaxTokens: j.cfg.MaxTokens}
	if useSchema {
		req.ResponseFormat = responseFormat
	}
	payload, err := json.Marshal(req)
	if err != nil {
		return 0, nil, nil, fmt.Errorf("encode request: %w", err)
	}
	select {
	case j.sem <- struct{}{}:
		defer func() { <-j.sem }()
	case <-ctx.Done():
		return 0, nil, nil, ctx.Err()
	}
	actx, cancel := context.WithTimeout(ctx, j.cfg.Timeout)
	defer cancel()
	hr, err := http.NewRequestWithContext(actx, http.MethodPost, j.endpoint, bytes.NewReader(payload))
	if err != nil {
		return 0, nil, nil, fmt.Errorf("build request: %w", err)
	}
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("Accept", "application/json")
	if key != "" {
		hr.Header.Set("Authorization", "Bearer "+key)
	}
	j.m.requests.Add(1)
	resp, err := j.client.Do(hr)
	if err != nil {
		return 0, nil, nil, j.attemptError(ctx, actx, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return 0, nil, nil, j.attemptError(ctx, actx, fmt.Errorf("read answer: %w", err))
	}
	if len(body) > maxBody {
		return 0, nil, nil, fmt.Errorf("answer longer than %d bytes", maxBody)
	}
	return resp.StatusCode, body, resp.Header, nil
}

// attemptError names an attempt's own time-out as such; other errors pass.
func (j *Judge) attemptError(ctx, actx context.Context, err error) error {
	if ctx.Err() == nil && errors.Is(actx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("%w after %v", ErrTimeout, j.cfg.Timeout)
	}
	return err
}

// mentionsSchema says whether a 400 answer blames structured output.
func mentionsSchema(body []byte) bool {
	b := bytes.ToLower(body)
	return bytes.Contains(b, []byte("response_format")) || bytes.Contains(b, []byte("json_schema"))
}

// statusError extracts the server's message (OpenAI's {"error":{"message"}},
// or {"error": "…"}, {"message"}, {"detail"}, else the raw body).
func statusError(code int, body []byte, key string) *StatusError {
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
	return &StatusError{Code: code, Message: head(msg, 300)}
}

// parseRetryAfter reads a Retry-After header: delay-seconds or an HTTP date.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
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

// backoff is the wait before retry n ≥ 1: the server's Retry-After when it
// gave one, else uniform in [0, min(BackoffMax, BackoffBase·2^(n−1))]; never
// more than BackoffMax.
func (j *Judge) backoff(n int, retryAfter time.Duration, has bool) time.Duration {
	if has {
		return min(retryAfter, j.cfg.BackoffMax)
	}
	ceil := j.cfg.BackoffBase
	for i := 1; i < n && ceil < j.cfg.BackoffMax; i++ {
		ceil *= 2
	}
	ceil = min(ceil, j.cfg.BackoffMax)
	j.rngMu.Lock()
	f := j.rng.Float64()
	j.rngMu.Unlock()
	return time.Duration(f * float64(ceil))
}

// sleepCtx waits d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
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
