package serve

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/sample"
)

// server is the Handler: one policy behind the chat-completions protocol.
type server struct {
	p       *policy.Policy // nil only when Options.Generate replaces it
	o       Options
	gen     GenerateFunc
	created int64 // Unix time the handler was made: the model's "created"

	// The model is not safe for concurrent use: a request generates only
	// while it holds the one token of turn. pending counts the requests
	// generating or waiting, so the queue stays bounded.
	turn    chan struct{}
	pending atomic.Int64

	mu  sync.Mutex // guards rng and seq
	rng *rand.Rand // seeds for requests without one
	seq uint64     // completions answered, for their ids

	logMu sync.Mutex
}

// Handler serves p over the OpenAI chat-completions protocol:
//
//	POST /v1/chat/completions   (also /chat/completions)
//	GET  /v1/models             (also /models, /v1/models/{name})
//
// Requests generate one at a time (the model is not safe for concurrent
// use); up to Options.MaxQueue more wait their turn, and a request whose
// client goes away stops waiting or generating. Errors are OpenAI-shaped:
// {"error": {"message", "type", "param", "code"}}. p may be nil only when
// Options.Generate is set; then prompts are neither counted nor checked
// against the model's context.
func Handler(p *policy.Policy, opts Options) http.Handler {
	o := opts.withDefaults()
	s := &server{
		p:       p,
		o:       o,
		gen:     o.Generate,
		created: time.Now().Unix(),
		turn:    make(chan struct{}, 1),
		rng:     rand.New(rand.NewPCG(o.Seed, 0x7365727665)), // stream: "serve"
	}
	if s.gen == nil {
		s.gen = func(ctx context.Context, prompt string, n int, c sample.Config) ([]sample.Response, error) {
			if p == nil {
				return nil, errors.New("no policy to serve")
			}
			return p.Generate(ctx, []string{prompt}, n, c)
		}
	}
	return s
}

// ServeHTTP routes a request and logs it when Options.Log is set.
func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	rec := &recorder{ResponseWriter: w, status: http.StatusOK}
	tokens := s.route(rec, r)
	if s.o.Log != nil {
		s.logMu.Lock()
		fmt.Fprintf(s.o.Log, "%s %q %d %d tokens %v\n", r.Method, r.URL.Path, rec.status, tokens, time.Since(start).Round(time.Millisecond))
		s.logMu.Unlock()
	}
}

// route picks the endpoint, checks the method and the API key, and returns
// the completion tokens generated.
func (s *server) route(w http.ResponseWriter, r *http.Request) int {
	var allow []string
	var h func(http.ResponseWriter, *http.Request) int
	switch path := r.URL.Path; {
	case path == "/v1/chat/completions" || path == "/chat/completions":
		allow, h = []string{http.MethodPost}, s.complete
	case path == "/v1/models" || path == "/models":
		allow, h = []string{http.MethodGet, http.MethodHead}, s.models
	case strings.HasPrefix(path, "/v1/models/") || strings.HasPrefix(path, "/models/"):
		allow, h = []string{http.MethodGet, http.MethodHead}, s.model
	default:
		fail(w, &apiError{Status: http.StatusNotFound, Type: typeInvalid, Code: "unknown_url",
			Message: fmt.Sprintf("no endpoint %s %s: this server answers POST /v1/chat/completions and GET /v1/models", r.Method, head(path, 100))})
		return 0
	}
	if !slices.Contains(allow, r.Method) {
		w.Header().Set("Allow", strings.Join(allow, ", "))
		fail(w, &apiError{Status: http.StatusMethodNotAllowed, Type: typeInvalid, Code: "method_not_allowed",
			Message: fmt.Sprintf("method %s not allowed on %s; use %s", head(r.Method, 20), r.URL.Path, strings.Join(allow, " or "))})
		return 0
	}
	if !s.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="credo"`)
		fail(w, &apiError{Status: http.StatusUnauthorized, Type: typeAuth, Code: "invalid_api_key",
			Message: "missing or wrong API key: send Authorization: Bearer <key>"})
		return 0
	}
	return h(w, r)
}

// authorized checks "Authorization: Bearer KEY" (scheme in any case) in
// constant time, when a key is configured.
func (s *server) authorized(r *http.Request) bool {
	if s.o.APIKey == "" {
		return true
	}
	h := r.Header.Get("Authorization")
	const scheme = "bearer "
	if len(h) < len(scheme) || !strings.EqualFold(h[:len(scheme)], scheme) {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(strings.TrimSpace(h[len(scheme):])), []byte(s.o.APIKey)) == 1
}

// complete answers one chat completion.
func (s *server) complete(w http.ResponseWriter, r *http.Request) int {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.o.MaxBodyBytes))
	if err != nil {
		if mb := new(http.MaxBytesError); errors.As(err, &mb) {
			return fail(w, &apiError{Status: http.StatusRequestEntityTooLarge, Type: typeInvalid, Code: "request_too_large",
				Message: fmt.Sprintf("request body larger than %d bytes", mb.Limit)})
		}
		return fail(w, &apiError{Status: http.StatusBadRequest, Type: typeInvalid, Message: "read request body: " + err.Error()})
	}
	req, e := parseRequest(body, s.o)
	if e != nil {
		return fail(w, e)
	}
	if req.Model != s.o.Name {
		return fail(w, &apiError{Status: http.StatusNotFound, Type: typeInvalid, Param: "model", Code: "model_not_found",
			Message: fmt.Sprintf("model %q: this server serves %q", head(req.Model, 100), s.o.Name)})
	}
	promptTokens := 0
	if s.p != nil {
		// Checked before queueing: a prompt that cannot fit never waits.
		promptTokens = len(s.p.Tok.EncodePrompt(req.Prompt))
		if limit := s.p.Model.Config.MaxPositionEmbeddings; promptTokens >= limit {
			return fail(w, &apiError{Status: http.StatusBadRequest, Type: typeInvalid, Param: "messages", Code: "context_length_exceeded",
				Message: fmt.Sprintf("messages: the prompt is %d tokens, which leaves no room in the model's context of %d tokens", promptTokens, limit)})
		}
	}
	res, e := s.generate(r.Context(), &req)
	if e != nil {
		return fail(w, e)
	}
	out := s.answer(req, res, promptTokens)
	writeJSON(w, http.StatusOK, out)
	return out.Usage.CompletionTokens
}

// generate waits for the model's turn and samples the request's choices.
func (s *server) generate(ctx context.Context, req *request) ([]sample.Response, *apiError) {
	if s.pending.Add(1) > int64(1+s.o.MaxQueue) {
		s.pending.Add(-1)
		return nil, &apiError{Status: http.StatusServiceUnavailable, Type: typeServer, Code: "overloaded",
			Message: fmt.Sprintf("the model is busy and %d requests are already waiting; try again shortly", s.o.MaxQueue)}
	}
	defer s.pending.Add(-1)
	select {
	case s.turn <- struct{}{}:
	case <-ctx.Done():
		return nil, cancelled(ctx)
	}
	defer func() { <-s.turn }()
	if !req.HasSeed {
		// Drawn in generation order, so the same requests in the same order replay.
		s.mu.Lock()
		req.Sample.Seed = s.rng.Uint64()
		s.mu.Unlock()
	}
	res, err := s.gen(ctx, req.Prompt, req.N, req.Sample)
	switch {
	case ctx.Err() != nil:
		return nil, cancelled(ctx)
	case err != nil:
		return nil, &apiError{Status: http.StatusInternalServerError, Type: typeServer, Message: "generate: " + err.Error()}
	case len(res) != req.N:
		return nil, &apiError{Status: http.StatusInternalServerError, Type: typeServer,
			Message: fmt.Sprintf("generate: %d responses for %d choices", len(res), req.N)}
	}
	return res, nil
}

// cancelled answers a request whose client went away (nobody reads it; the
// log does).
func cancelled(ctx context.Context) *apiError {
	return &apiError{Status: http.StatusServiceUnavailable, Type: typeServer, Code: "cancelled",
		Message: "request cancelled: " + context.Cause(ctx).Error()}
}

// fail sends e and returns 0 tokens.
func fail(w http.ResponseWriter, e *apiError) int {
	if e.Status == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", "1")
	}
	writeJSON(w, e.Status, e.body())
	return 0
}

// recorder remembers the status sent, for the log.
type recorder struct {
	http.ResponseWriter
	status int
}

func (r *recorder) WriteHeader(code int) {
	r.status = code
	r.ResponseWriter.WriteHeader(code)
}

// Unwrap lets http.ResponseController and MaxBytesReader reach the writer.
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }
