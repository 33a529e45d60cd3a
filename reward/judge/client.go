package judge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/credo-rl/credo/internal/httpcall"
)

// ErrTimeout marks an attempt that ran past Config.Timeout.
var ErrTimeout = httpcall.ErrTimeout

// StatusError is an answer other than 200 OK (httpcall.StatusError).
type StatusError = httpcall.StatusError

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
		case httpcall.Retryable(status):
			last = httpcall.NewStatusError(status, body, key)
			wait, hasWait = httpcall.ParseRetryAfter(header.Get("Retry-After"), time.Now())
		default:
			return "", httpcall.NewStatusError(status, body, key)
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
	h := http.Header{}
	if key != "" {
		h.Set("Authorization", "Bearer "+key)
	}
	j.m.requests.Add(1)
	return httpcall.Post(ctx, j.client, j.endpoint, h, payload, j.cfg.Timeout)
}

// mentionsSchema says whether a 400 answer blames structured output.
func mentionsSchema(body []byte) bool {
	b := bytes.ToLower(body)
	return bytes.Contains(b, []byte("response_format")) || bytes.Contains(b, []byte("json_schema"))
}

// backoff is the wait before retry n ≥ 1: the server's Retry-After when it
// gave one, else uniform in [0, min(BackoffMax, BackoffBase·2^(n−1))]; never
// more than BackoffMax.
func (j *Judge) backoff(n int, retryAfter time.Duration, has bool) time.Duration {
	if has {
		return min(retryAfter, j.cfg.BackoffMax)
	}
	j.rngMu.Lock()
	u := j.rng.Float64()
	j.rngMu.Unlock()
	return httpcall.Backoff(n, j.cfg.BackoffBase, j.cfg.BackoffMax, retryAfter, has, u)
}
