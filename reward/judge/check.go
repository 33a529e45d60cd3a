package judge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/credo-rl/credo/internal/httpcall"
)

// checkTimeout bounds each of Check's two requests (Config.Timeout, when
// shorter, bounds them instead).
const checkTimeout = 20 * time.Second

// serveHint says how to start a judge with credo itself.
const serveHint = "`credo serve-model --model DIR` serves http://127.0.0.1:8080/v1 with model name \"credo\""

// Check asks the server, once and without retries, whether judging can
// work at all, so that a run does not score every response 0 for hours: it
// must answer, and know the model. It sends GET {URL}/models (when the
// server lists its models, Config.Model must be among them) and a one-token
// chat completion (which also exercises the API key and the path).
func (j *Judge) Check(ctx context.Context) error {
	key, err := j.apiKey()
	if err != nil {
		return fmt.Errorf("judge %s: %w", j.cfg.Name, err)
	}
	base := strings.TrimSuffix(j.endpoint, "/chat/completions")
	if status, body, err := j.checkRequest(ctx, http.MethodGet, base+"/models", key, nil); err != nil {
		return j.unreachable(err)
	} else if status == http.StatusOK {
		if models := listedModels(body); len(models) > 0 && !slices.Contains(models, j.cfg.Model) {
			return fmt.Errorf("judge %s: the server at %s does not serve model %q (it serves: %s): fix model= in --judge",
				j.cfg.Name, j.cfg.URL, j.cfg.Model, strings.Join(models, ", "))
		}
	}
	payload, _ := json.Marshal(chatRequest{Model: j.cfg.Model, MaxTokens: 1,
		Messages: []message{{Role: "user", Content: "Reply with OK."}}})
	status, body, err := j.checkRequest(ctx, http.MethodPost, j.endpoint, key, payload)
	if err != nil {
		return j.unreachable(err)
	}
	switch se := httpcall.NewStatusError(status, body, key); {
	case status == http.StatusOK:
		return nil
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return fmt.Errorf("judge %s: the server at %s refused the request (%v): check key_env (now %q)", j.cfg.Name, j.cfg.URL, se, j.cfg.APIKeyEnv)
	case status == http.StatusNotFound:
		return fmt.Errorf("judge %s: %s answered 404 (%v): is url= the server's base URL (it usually ends in /v1) and model= a model it serves?", j.cfg.Name, j.endpoint, se)
	default:
		return fmt.Errorf("judge %s: a test request to %s failed: %v", j.cfg.Name, j.endpoint, se)
	}
}

// unreachable words a network failure of Check.
func (j *Judge) unreachable(err error) error {
	return fmt.Errorf("judge %s: cannot reach the server at %s: %w (is it running? %s)", j.cfg.Name, j.cfg.URL, err, serveHint)
}

// checkRequest sends one request of Check under its time limit.
func (j *Judge) checkRequest(ctx context.Context, method, url, key string, payload []byte) (int, []byte, error) {
	ctx, cancel := context.WithTimeout(ctx, min(checkTimeout, j.cfg.Timeout))
	defer cancel()
	var body io.Reader
	if payload != nil {
		body = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, body)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Accept", "application/json")
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := j.client.Do(req)
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return 0, nil, fmt.Errorf("no answer within %v", min(checkTimeout, j.cfg.Timeout))
		}
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, httpcall.MaxBody))
	if err != nil {
		return 0, nil, err
	}
	return resp.StatusCode, b, nil
}

// listedModels reads the ids of an OpenAI /models answer ({"data":[{"id"}]});
// nil when the answer is not one.
func listedModels(body []byte) []string {
	var l struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if json.Unmarshal(body, &l) != nil {
		return nil
	}
	var ids []string
	for _, m := range l.Data {
		if m.ID != "" {
			ids = append(ids, m.ID)
		}
	}
	return ids
}
