package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/credo-rl/credo/model"
	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/tokenizer"
)

// tinyCheckpoint saves an untrained tiny policy and returns its folder.
func tinyCheckpoint(t *testing.T) string {
	t.Helper()
	tok, err := tokenizer.NewBytes()
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.New(model.Tiny(tok.VocabSize()), 3)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "ckpt")
	if err := (&policy.Policy{Model: m, Tok: tok}).Save(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// lockedBuffer collects a writer's output across goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestServeModel starts `credo serve-model` on a free port, asks it over
// HTTP (with and without the key), then cancels its context as SIGINT
// would and checks it stops cleanly.
func TestServeModel(t *testing.T) {
	dir := tinyCheckpoint(t)
	t.Setenv("CREDO_SERVE_TEST_KEY", "k3y")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	var stderr lockedBuffer
	done := make(chan error, 1)
	go func() {
		done <- runServe(ctx, []string{"--model", dir, "--addr", "127.0.0.1:0", "--max-tokens", "8",
			"--api-key-env", "CREDO_SERVE_TEST_KEY", "--name", "tiny"}, pw, &stderr)
		pw.Close()
	}()
	lines := make(chan string, 8)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	first, ok := <-lines
	if !ok {
		t.Fatalf("runServe printed nothing: %v\n%s", <-done, stderr.String())
	}
	base, _, _ := strings.Cut(strings.TrimPrefix(first, "listening on "), " ")
	if !strings.HasPrefix(first, "listening on http://127.0.0.1:") || !strings.HasSuffix(base, "/v1") {
		t.Fatalf("first line %q: want listening on http://127.0.0.1:PORT/v1", first)
	}

	ask := func(key string) (int, map[string]any) {
		req, _ := http.NewRequest("POST", base+"/chat/completions",
			strings.NewReader(`{"model": "tiny", "messages": [{"role": "user", "content": "hello"}], "temperature": 0}`))
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var body map[string]any
		json.NewDecoder(resp.Body).Decode(&body)
		return resp.StatusCode, body
	}
	status, body := ask("k3y")
	if status != 200 || body["model"] != "tiny" || len(body["choices"].([]any)) != 1 {
		t.Errorf("with the key: %d %v", status, body)
	}
	if usage, _ := body["usage"].(map[string]any); usage["completion_tokens"].(float64) > 8 {
		t.Errorf("--max-tokens 8 not applied: %v", usage)
	}
	if status, body := ask("nope"); status != 401 || body["error"] == nil {
		t.Errorf("wrong key: %d %v", status, body)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("runServe after cancel: %v", err)
		}
	case <-time.After(30 * time.Second): // a hang, not a timing check
		t.Fatal("runServe did not stop after its context was cancelled")
	}
	var rest []string
	for l := range lines {
		rest = append(rest, l)
	}
	if len(rest) != 1 || rest[0] != "stopped" {
		t.Errorf("after the first line: %q, want [stopped]", rest)
	}
	if _, err := net.Dial("tcp", strings.TrimSuffix(strings.TrimPrefix(base, "http://"), "/v1")); err == nil {
		t.Error("the port still accepts connections")
	}
	log := stderr.String()
	if !strings.Contains(log, `POST "/v1/chat/completions" 200`) || !strings.Contains(log, `POST "/v1/chat/completions" 401`) {
		t.Errorf("request log on stderr:\n%s", log)
	}
}

func TestServeUsage(t *testing.T) {
	ctx := context.Background()
	dir := tinyCheckpoint(t)
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	t.Setenv("CREDO_SERVE_EMPTY", "")
	for _, tc := range []struct {
		args  []string
		usage bool   // a usageError (exit code 2)
		help  bool   // flag.ErrHelp (exit code 0)
		want  string // in the error, on stderr, or (help) on stdout
	}{
		{nil, true, false, "--model is required"},
		{[]string{"--model", dir, "--max-tokens", "0"}, true, false, "at least 1"},
		{[]string{"--model", dir, "--queue", "-1"}, true, false, "at least 0"},
		{[]string{"--model", dir, "--api-key-env", "CREDO_SERVE_EMPTY"}, true, false, "CREDO_SERVE_EMPTY: the variable is empty"},
		{[]string{"--model", dir, "stray"}, true, false, "unexpected arguments"},
		{[]string{"--model", filepath.Join(dir, "missing")}, true, false, "not a checkpoint folder"},
		{[]string{"--model", dir, "--addr", busy.Addr().String()}, false, false, "listen"},
		{[]string{"--help"}, false, true, "--api-key-env string"},
		{[]string{"-h"}, false, true, `(default "127.0.0.1:8080")`},
	} {
		var out, errw bytes.Buffer
		err := runServe(ctx, tc.args, &out, &errw)
		if got := errors.As(err, new(usageError)); got != tc.usage {
			t.Errorf("%q: error %v, usage error %v want %v", tc.args, err, got, tc.usage)
		}
		if got := errors.Is(err, flag.ErrHelp); got != tc.help {
			t.Errorf("%q: error %v, help %v want %v", tc.args, err, got, tc.help)
		}
		msg := out.String() + " " + errw.String()
		if err != nil {
			msg += " " + err.Error()
		}
		if err == nil || !strings.Contains(msg, tc.want) {
			t.Errorf("%q: %q not in %s", tc.args, tc.want, msg)
		}
	}
}
