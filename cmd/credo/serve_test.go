package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
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

// served is a serve-model run by startServe.
type served struct {
	base   string      // http://127.0.0.1:PORT/v1
	lines  chan string // its output after the first line
	stderr *lockedBuffer
	cancel context.CancelFunc
	done   chan error
}

// startServe runs serve-model with args (which must listen on
// 127.0.0.1:0) until the test ends or stop is called.
func startServe(t *testing.T, args ...string) *served {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	pr, pw := io.Pipe()
	sv := &served{lines: make(chan string, 8), stderr: &lockedBuffer{}, cancel: cancel, done: make(chan error, 1)}
	go func() {
		sv.done <- runServe(ctx, args, pw, sv.stderr)
		pw.Close()
	}()
	first := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for n := 0; sc.Scan(); n++ {
			if n == 0 {
				first <- sc.Text()
				continue
			}
			sv.lines <- sc.Text()
		}
		close(first)
		close(sv.lines)
	}()
	line, ok := <-first
	if !ok {
		t.Fatalf("runServe printed nothing: %v\n%s", <-sv.done, sv.stderr.String())
	}
	base, _, _ := strings.Cut(strings.TrimPrefix(line, "listening on "), " ")
	if !strings.HasPrefix(line, "listening on http://127.0.0.1:") || !strings.HasSuffix(base, "/v1") {
		t.Fatalf("first line %q: want listening on http://127.0.0.1:PORT/v1", line)
	}
	sv.base = base
	return sv
}

// stop cancels serve-model's context, as SIGINT would, and returns its error.
func (sv *served) stop() error {
	sv.cancel()
	select {
	case err := <-sv.done:
		if err != nil {
			return fmt.Errorf("runServe after cancel: %w", err)
		}
		return nil
	case <-time.After(30 * time.Second): // a hang, not a timing check
		return errors.New("runServe did not stop after its context was cancelled")
	}
}

// TestServeModel starts `credo serve-model` on a free port, asks it over
// HTTP (with and without the key), then cancels its context as SIGINT
// would and checks it stops cleanly.
func TestServeModel(t *testing.T) {
	dir := tinyCheckpoint(t)
	t.Setenv("CREDO_SERVE_TEST_KEY", "k3y")
	sv := startServe(t, "--model", dir, "--addr", "127.0.0.1:0", "--max-tokens", "8",
		"--api-key-env", "CREDO_SERVE_TEST_KEY", "--name", "tiny")
	base, lines, stderr := sv.base, sv.lines, sv.stderr

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

	if err := sv.stop(); err != nil {
		t.Fatal(err)
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
