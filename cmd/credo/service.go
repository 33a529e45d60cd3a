package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/service"
	"github.com/credo-rl/credo/task"
	"github.com/credo-rl/credo/task/sql"
)

// runService is `credo serve`: the verifier-and-credit service of
// docs/SERVICE.md.
func runService(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("serve", "Serves credo's verifiers and token-level credit over HTTP/JSON (docs/SERVICE.md), for\n"+
		"trainers that are not credo's own: POST /v1/verify (IFEval, BFCL, GSM8K and text-to-SQL records, or\n"+
		"credo's generated prompts by id), /v1/advantages (every credit method on a batch), /v1/replay-plan\n"+
		"(MRTPO's replays for the trainer's engine to score), /v1/prompts; GET /v1/methods, /v1/tasks,\n"+
		"/healthz, /metrics. Stateless; SIGTERM or Ctrl-C finishes the requests in flight, then exits.", stdout, stderr)
	backendFlag(fs)
	addr := fs.String("addr", service.DefaultAddr, "address to listen on; the default takes connections from this machine only (port 0 picks a free one)")
	keyEnv := fs.String("api-key-env", "", "environment variable holding the key every request but /healthz must send as Authorization: Bearer <key> (empty: no key)")
	maxBody := fs.String("max-body", "128MiB", "largest request body, in bytes or with a unit (KiB, MiB, GiB); larger gets 413. The default is 4× a large span batch (5,120 responses of ~300 tokens, packed); MRTPO's top-20 replay answers for 1,024 × 512 tokens take ~151 MB: raise it for them")
	deadline := fs.Duration("deadline", service.DefaultDeadline, "longest a request may take, from its first byte to its answer; longer gets 504")
	conc := fs.Int("concurrency", service.DefaultConcurrency, "requests computing at once; others wait for a slot until their deadline (then 503)")
	workers := fs.Int("verify-workers", service.DefaultVerifyWorkers, "verdicts computed at once, over all verify requests (bounds what verifiers hold in memory)")
	vtimeout := fs.Duration("verify-timeout", service.DefaultVerifyTimeout, "time limit of one verdict (as train's --verify-timeout); past it the verdict scores 0 with an error")
	readTimeout := fs.Duration("read-timeout", 2*time.Minute, "longest time to read one request (its headers: 10s)")
	idleTimeout := fs.Duration("idle-timeout", 2*time.Minute, "how long a kept-alive connection may wait for its next request")
	var judges []string
	fs.ListVar(&judges, "judge", "add an LLM judge reward to every format: name=…,url=…,model=…[,rubric=FILE,weight=…,key_env=VAR] as train takes it (repeatable)")
	prmDir := fs.String("prm", "", "process reward model folder (credo prm train) for p2t requests that send no influence")
	sqlDir := fs.String("sql-dir", "", "folder of SQLite databases that sql records name by db_id (<id>.sqlite, .sqlite3, .db, or <id>/<id>.sqlite)")
	quiet := fs.Bool("quiet", false, "do not log each request to stderr")
	if err := fs.Parse(args); err != nil {
		return err
	}
	bodyLimit, err := parseBytes(*maxBody)
	if err != nil {
		return usageError{Err: fmt.Errorf("--max-body: %w", err)}
	}
	if *conc < 1 || *workers < 1 || *deadline <= 0 || *vtimeout <= 0 || *readTimeout <= 0 || *idleTimeout <= 0 {
		return usageError{Err: errors.New("--concurrency and --verify-workers must be at least 1, the durations positive")}
	}
	o := service.Options{MaxBody: bodyLimit, Deadline: *deadline, Concurrency: *conc, VerifyWorkers: *workers, VerifyTimeout: *vtimeout}
	if !*quiet {
		o.Log = stderr
	}
	if *keyEnv != "" {
		if o.APIKey = strings.TrimSpace(os.Getenv(*keyEnv)); o.APIKey == "" {
			return usageError{Err: fmt.Errorf("--api-key-env %s: the variable is empty or unset", *keyEnv)}
		}
	}
	closers, err := serviceInputs(ctx, &o, judges, *prmDir, *sqlDir)
	defer func() {
		for _, c := range closers {
			c.Close()
		}
	}()
	if err != nil {
		return err
	}
	srv, err := service.New(o)
	if err != nil {
		return usageError{Err: err}
	}
	defer srv.Close()
	if _, err := net.ResolveTCPAddr("tcp", *addr); err != nil {
		return usageError{Err: fmt.Errorf("--addr: %w", err)} // malformed; a busy port is a failure (exit 1)
	}
	ln, err := listen(*addr)
	if err != nil {
		return err
	}
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: *readTimeout,
		WriteTimeout: *deadline + *readTimeout, IdleTimeout: *idleTimeout}
	fmt.Fprintf(stdout, "credo serve: listening on http://%s (docs/SERVICE.md)\n", ln.Addr())
	return serveUntilDone(ctx, hs, ln, *deadline, stdout)
}

// serviceInputs builds the judges (each checked once, as train does), the
// PRM and the sql records' folder into o, returning what to close.
func serviceInputs(ctx context.Context, o *service.Options, judges []string, prmDir, sqlDir string) ([]io.Closer, error) {
	var closers []io.Closer
	for _, spec := range judges {
		v, err := reward.New("judge", spec)
		if err != nil {
			return closers, usageError{Err: fmt.Errorf("--judge %q: %w", spec, err)}
		}
		o.Judges = append(o.Judges, v)
	}
	if err := reward.Check(ctx, o.Judges); err != nil {
		return closers, err
	}
	if prmDir != "" {
		p, err := loadPRM(prmDir)
		if err != nil {
			return closers, usageError{Err: err}
		}
		o.PRM = p
	}
	if sqlDir != "" {
		f, err := sql.OpenFolder(sqlDir, sql.Options{Conns: 4})
		if err != nil {
			return closers, usageError{Err: fmt.Errorf("--sql-dir: %w", err)}
		}
		closers = append(closers, f)
		o.Records = append(o.Records, task.RecordReader(f))
	}
	return closers, nil
}

// serveUntilDone serves until ctx ends (SIGINT, SIGTERM), then stops
// taking connections and lets the requests in flight finish, for up to
// grace.
func serveUntilDone(ctx context.Context, hs *http.Server, ln net.Listener, grace time.Duration, stdout io.Writer) error {
	stopped := make(chan error, 1)
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), grace)
		defer cancel()
		stopped <- hs.Shutdown(sctx)
	}()
	if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	if err := <-stopped; err != nil {
		hs.Close()
		return fmt.Errorf("shut down: %w", err)
	}
	fmt.Fprintln(stdout, "credo serve: stopped")
	return nil
}

// parseBytes reads a size: a whole number of bytes, or one with a unit
// KiB, MiB or GiB (KB, MB, GB are read as the same powers of two).
func parseBytes(s string) (int64, error) {
	units := []struct {
		suffix string
		mult   int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}, {"B", 1}}
	s = strings.TrimSpace(s)
	mult := int64(1)
	for _, u := range units {
		if rest, ok := strings.CutSuffix(s, u.suffix); ok {
			s, mult = strings.TrimSpace(rest), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 1 || n > (1<<40)/mult {
		return 0, fmt.Errorf("want a size such as 256MiB or 1000000, at least 1 byte and at most 1 TiB")
	}
	return n * mult, nil
}
