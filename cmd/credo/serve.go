package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"time"

	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/serve"
)

// shutdownGrace is how long in-flight requests may finish after a signal.
const shutdownGrace = 10 * time.Second

// defaultServeAddr is where serve-model listens unless told otherwise: a
// judge's url is then http://127.0.0.1:8080/v1.
const defaultServeAddr = "127.0.0.1:8080"

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("serve-model", "Serves a checkpoint over the OpenAI chat-completions protocol (POST /v1/chat/completions,\n"+
		"non-streaming; GET /v1/models), so the judge client or any OpenAI client can use it.\n"+
		"Requests generate one at a time; the conversation becomes one prompt (system and user texts, in order).\n"+
		"A judge reaches it with --judge name=…,url=http://127.0.0.1:8080/v1,model=credo.", stdout, stderr)
	backendFlag(fs)
	dir := fs.String("model", "", "checkpoint folder (config.json, model.safetensors, tokenizer) (required)")
	addr := fs.String("addr", defaultServeAddr, "address to listen on (port 0 picks a free one)")
	name := fs.String("name", serve.DefaultName, "model name clients must send (and /v1/models lists)")
	maxTokens := fs.Int("max-tokens", serve.DefaultMaxTokens, "completion tokens when a request sets none, and the most it may ask for")
	maxN := fs.Int("max-n", serve.DefaultMaxN, "most choices (n) per request")
	queue := fs.Int("queue", serve.DefaultMaxQueue, "requests that may wait while one generates; more get 503 (0: none wait)")
	keyEnv := fs.String("api-key-env", "", "environment variable holding the API key clients must send as a Bearer token (empty: no key)")
	strict := fs.Bool("strict-schema", false, "refuse response_format json_object/json_schema with 400 instead of ignoring it")
	seed := fs.Uint64("seed", 0, "seeds the sampling seeds of requests that send none")
	quiet := fs.Bool("quiet", false, "do not log each request to stderr")
	readTimeout := fs.Duration("read-timeout", serve.DefaultReadTimeout, "most time a client may take to send a request, body included")
	idleTimeout := fs.Duration("idle-timeout", serve.DefaultIdleTimeout, "most time a kept-alive connection may wait for its next request")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dir == "" {
		return usageError{Err: errors.New("--model is required")}
	}
	if *maxTokens < 1 || *maxN < 1 || *queue < 0 {
		return usageError{Err: errors.New("--max-tokens and --max-n must be at least 1, --queue at least 0")}
	}
	if *readTimeout <= 0 || *idleTimeout <= 0 {
		return usageError{Err: errors.New("--read-timeout and --idle-timeout must be positive")}
	}
	o := serve.Options{Name: *name, MaxTokens: *maxTokens, MaxN: *maxN, MaxQueue: *queue, StrictSchema: *strict, Seed: *seed}
	if *queue == 0 {
		o.MaxQueue = -1 // Options' "none wait"
	}
	if *keyEnv != "" {
		if o.APIKey = strings.TrimSpace(os.Getenv(*keyEnv)); o.APIKey == "" {
			return usageError{Err: fmt.Errorf("--api-key-env %s: the variable is empty or unset", *keyEnv)}
		}
	}
	if !*quiet {
		o.Log = stderr
	}
	p, err := policy.Load(*dir)
	if err != nil {
		return usageError{Err: fmt.Errorf("--model: %w", err)}
	}
	if _, err := net.ResolveTCPAddr("tcp", *addr); err != nil {
		return usageError{Err: fmt.Errorf("--addr: %w", err)} // malformed; a busy port is a failure (exit 1)
	}
	ln, err := listen(*addr)
	if err != nil {
		return err
	}
	// A slow or idle client cannot hold a connection open.
	srv := serve.NewServer(serve.Handler(p, o), serve.Timeouts{Read: *readTimeout, Idle: *idleTimeout})
	fmt.Fprintf(stdout, "listening on http://%s/v1 (model %q from %s)\n", ln.Addr(), *name, *dir)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close()
		return fmt.Errorf("shut down: %w", err)
	}
	<-done // http.ErrServerClosed
	fmt.Fprintln(stdout, "stopped")
	return nil
}
