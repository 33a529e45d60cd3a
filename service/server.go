package service

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime/debug"
	"strings"
	"time"

	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/task"
)

// Defaults of Options (docs/SERVICE.md §1, "Limits").
const (
	DefaultAddr = "127.0.0.1:8700"
	// DefaultMaxBody is 4× the largest realistic request (docs/SERVICE.md
	// §1): verl's GSM8K recipe batch, 5,120 responses of ~300 tokens at
	// ~20 bytes a token packed, ~31 MB. Four concurrent bodies of it stay
	// within 512 MiB; MRTPO's top-20 replay answers need it raised.
	DefaultMaxBody       = 128 << 20
	DefaultDeadline      = 60 * time.Second
	DefaultConcurrency   = 4
	DefaultVerifyWorkers = 16
	DefaultVerifyTimeout = 5 * time.Second
)

// Fixed limits of a request (docs/SERVICE.md §1).
const (
	maxResponses     = 1 << 16
	maxTokens        = 1 << 16 // per response
	maxBatchTokens   = 1 << 26
	maxRewards       = 256
	maxTopK          = 1024
	maxPromptsAnswer = 10_000
	maxSpanWork      = 1 << 28 // Σ over verdicts of spans × the response's tokens
	// maxVerifyText bounds one response's text in /v1/verify: 4 bytes for
	// each of the 65,536 tokens a response may have in /v1/advantages (an
	// English text of that many tokens is about this long). A verifier's
	// work and memory grow with the text: IFEval's checkers allocate up to
	// ~100 bytes a byte on hostile texts (one span per comma, per word).
	maxVerifyText = maxTokens * 4
	// maxVerdictSpans bounds the spans of one verdict in verify's answer
	// (capSpans): a 50 MB response of commas had made 550 MB of JSON.
	maxVerdictSpans = 1024
	// bigRequest is the body or answer size after which the server hands
	// its freed memory back to the system (debug.FreeOSMemory): one large
	// request would otherwise leave the heap at its peak for minutes.
	bigRequest = 32 << 20
)

// Options configure a Server. Zero fields take the defaults.
type Options struct {
	APIKey        string        // the bearer key every request but /healthz must send; empty: none
	MaxBody       int64         // request body bytes
	Deadline      time.Duration // per request, from its arrival to its last byte
	Concurrency   int           // requests computing at once
	VerifyWorkers int           // verdicts computed at once, over all verify requests
	VerifyTimeout time.Duration // one verdict
	// Judges are LLM-judge rewards (reward.New("judge", spec)), appended to
	// every format's rewards, as credo train appends them to a task's.
	Judges []reward.Verifier
	// PRM answers p2t requests that send no influence; nil: they must.
	PRM credit.Influencer
	// Records are record readers beyond the registered tasks' (the sql
	// records' folder of databases, sql.Folder).
	Records []task.RecordReader
	Log     io.Writer // one line per request; nil: none
}

func (o Options) withDefaults() Options {
	if o.MaxBody <= 0 {
		o.MaxBody = DefaultMaxBody
	}
	if o.Deadline <= 0 {
		o.Deadline = DefaultDeadline
	}
	if o.Concurrency <= 0 {
		o.Concurrency = DefaultConcurrency
	}
	if o.VerifyWorkers <= 0 {
		o.VerifyWorkers = DefaultVerifyWorkers
	}
	if o.VerifyTimeout <= 0 {
		o.VerifyTimeout = DefaultVerifyTimeout
	}
	return o
}

// Server is credo's verifiers and credit behind HTTP (docs/SERVICE.md).
// It holds no state between requests beyond its tasks, judges and
// counters. Build it with New, serve Handler, and Close it.
type Server struct {
	o     Options
	m     *metrics
	slots chan struct{}
	// verifying holds a slot per verdict being computed, over all
	// requests: what verifiers hold at once is bounded by VerifyWorkers
	// verdicts, whatever the number of concurrent requests.
	verifying chan struct{}
	tasks     *taskSet
	formats   []format
	routes    map[string]route
}

// route is one endpoint.
type route struct {
	method string
	handle func(ctx context.Context, body []byte) ([]byte, error)
}

// New builds a server: every registered task once (record readers are
// found among them by type assertion), the formats, and the routes. A
// judge named like a format's reward is an error.
func New(o Options) (*Server, error) {
	o = o.withDefaults()
	ts, err := newTaskSet()
	if err != nil {
		return nil, err
	}
	s := &Server{o: o, m: newMetrics(), slots: make(chan struct{}, o.Concurrency), verifying: make(chan struct{}, o.VerifyWorkers), tasks: ts}
	if s.formats, err = s.buildFormats(); err != nil {
		ts.close()
		return nil, err
	}
	s.routes = map[string]route{
		"/healthz":        {http.MethodGet, s.healthz},
		"/metrics":        {http.MethodGet, nil}, // written by metrics.write
		"/v1/methods":     {http.MethodGet, s.methods},
		"/v1/tasks":       {http.MethodGet, s.listTasks},
		"/v1/prompts":     {http.MethodPost, s.prompts},
		"/v1/verify":      {http.MethodPost, s.verify},
		"/v1/advantages":  {http.MethodPost, s.advantages},
		"/v1/replay-plan": {http.MethodPost, s.replayPlan},
	}
	return s, nil
}

// Close releases the tasks' resources (the sql task's database).
func (s *Server) Close() error { return s.tasks.close() }

// Handler is the server's http.Handler.
func (s *Server) Handler() http.Handler { return http.HandlerFunc(s.serve) }

func (s *Server) healthz(context.Context, []byte) ([]byte, error) {
	return []byte(`{"status":"ok"}`), nil
}

// serve answers one request: authentication, routing, the body (bounded
// by MaxBody and the deadline), a compute slot, the endpoint, and the
// answer or the error as JSON; it records the metrics and never lets a
// panic escape.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	s.m.start()
	rt, known := s.routes[r.URL.Path]
	endpoint := r.URL.Path
	if !known {
		endpoint = "other"
	}
	code, kind := http.StatusOK, ""
	defer func() {
		if p := recover(); p != nil {
			s.logf("panic serving %s: %v\n%s", r.URL.Path, p, debug.Stack())
			code, kind = http.StatusInternalServerError, kindInternal
			writeError(w, &apiError{status: code, kind: kind, msg: "internal error (logged)"})
		}
		d := time.Since(start)
		s.m.done(endpoint, code, kind, d)
		s.logf("%s %s %d %s", r.Method, r.URL.Path, code, d.Round(time.Microsecond))
	}()
	ctx, cancel := context.WithTimeout(r.Context(), s.o.Deadline)
	defer cancel()
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(start.Add(s.o.Deadline))
	rc.SetWriteDeadline(start.Add(s.o.Deadline + 10*time.Second))
	var bodyLen int
	out, err := s.dispatch(ctx, w, r, rt, known, &bodyLen)
	defer returnMemory(bodyLen, len(out)) // runs after the answer is written, out and the body garbage
	if err != nil {
		var ae *apiError
		switch {
		case errors.As(err, &ae):
		case ctx.Err() != nil:
			ae = &apiError{status: http.StatusGatewayTimeout, kind: kindDeadline, msg: fmt.Sprintf("the request ran past the server's deadline of %v", s.o.Deadline)}
		default:
			s.logf("internal error on %s: %v", r.URL.Path, err)
			ae = &apiError{status: http.StatusInternalServerError, kind: kindInternal, msg: err.Error()}
		}
		code, kind = ae.status, ae.kind
		if ae.status == http.StatusMethodNotAllowed {
			w.Header().Set("Allow", rt.method)
		}
		writeError(w, ae)
		return
	}
	if out == nil { // /metrics wrote itself
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(out)
}

// returnMemory hands the heap's free pages back to the system after a
// request whose body or answer was large. Go's scavenger returns them only
// over minutes; a server that has just held a 300 MB batch should not sit
// at that size while it serves 2 MB ones. The cost, a forced collection,
// is small beside such a request's own.
func returnMemory(body, answer int) {
	if max(body, answer) >= bigRequest {
		go debug.FreeOSMemory() // not in the handler: net/http flushes the answer's tail after it returns
	}
}

// dispatch does everything between the request line and the answer.
// bodyLen receives the body's size, for returnMemory.
func (s *Server) dispatch(ctx context.Context, w http.ResponseWriter, r *http.Request, rt route, known bool, bodyLen *int) ([]byte, error) {
	if r.URL.Path != "/healthz" && s.o.APIKey != "" {
		auth, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || subtle.ConstantTimeCompare([]byte(auth), []byte(s.o.APIKey)) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="credo"`)
			return nil, &apiError{status: http.StatusUnauthorized, kind: kindAuth, msg: "send the server's key as Authorization: Bearer <key>"}
		}
	}
	if !known {
		return nil, &apiError{status: http.StatusNotFound, kind: kindNotFound, msg: fmt.Sprintf("no endpoint %s (docs/SERVICE.md lists them)", r.URL.Path)}
	}
	if r.Method != rt.method {
		return nil, &apiError{status: http.StatusMethodNotAllowed, kind: kindMethod, msg: fmt.Sprintf("%s takes %s, not %s", r.URL.Path, rt.method, r.Method)}
	}
	if rt.handle == nil {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4")
		s.m.write(w)
		return nil, nil
	}
	if r.Method != http.MethodPost {
		return rt.handle(ctx, nil)
	}
	select { // a compute slot, before the body is read: waiting requests hold no memory
	case s.slots <- struct{}{}:
		defer func() { <-s.slots }()
	case <-ctx.Done():
		return nil, &apiError{status: http.StatusServiceUnavailable, kind: kindBusy,
			msg: fmt.Sprintf("no compute slot freed within the deadline (%d requests compute at once)", cap(s.slots))}
	}
	body, err := s.readBody(w, r)
	if err != nil {
		return nil, err
	}
	*bodyLen = len(body)
	return rt.handle(ctx, body)
}

// readBody reads the whole body, at most MaxBody bytes.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	var buf bytes.Buffer
	if n := r.ContentLength; n > 0 && n <= s.o.MaxBody {
		buf.Grow(int(n))
	}
	_, err := buf.ReadFrom(http.MaxBytesReader(w, r.Body, s.o.MaxBody))
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		return nil, &apiError{status: http.StatusRequestEntityTooLarge, kind: kindTooLarge, msg: fmt.Sprintf("the body is over the server's limit of %d bytes (--max-body)", s.o.MaxBody)}
	case err != nil:
		return nil, badf("", "reading the body: %v", err)
	}
	return buf.Bytes(), nil
}

// writeError answers {"error": {"kind", "path", "message"}}.
func writeError(w http.ResponseWriter, e *apiError) {
	type body struct {
		Kind    string `json:"kind"`
		Path    string `json:"path"`
		Message string `json:"message"`
	}
	out, _ := json.Marshal(map[string]body{"error": {e.kind, e.path, e.msg}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(e.status)
	w.Write(out)
}

func (s *Server) logf(format string, args ...any) {
	if s.o.Log != nil {
		fmt.Fprintf(s.o.Log, format+"\n", args...)
	}
}
