package remote

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/credo-rl/credo/internal/httpcall"
	"github.com/credo-rl/credo/reward"
)

func init() {
	reward.Register("remote", func(spec string) (reward.Verifier, error) { return NewFromSpec(spec) })
}

// Records gives the record a prompt was made from (a records task has
// it), sent to the verifier as "record".
type Records interface {
	Record(p reward.Prompt) (json.RawMessage, bool)
}

// Verifier is a reward judged by a remote program (see the package doc).
// It is a reward.Weighted, reward.Reporter and reward.Checker; safe for
// concurrent use.
type Verifier struct {
	cfg     Config
	client  *http.Client
	sem     chan struct{}
	records Records // nil: every request's record is null
	sleep   func(context.Context, time.Duration) error

	rngMu sync.Mutex
	rng   *rand.Rand

	requests, retries, errs, verdicts atomic.Int64
}

var (
	_ reward.Weighted = (*Verifier)(nil)
	_ reward.Reporter = (*Verifier)(nil)
	_ reward.Checker  = (*Verifier)(nil)
)

// Option adjusts a Verifier.
type Option func(*Verifier)

// WithRecords sends each prompt's record (nil r: none).
func WithRecords(r Records) Option { return func(v *Verifier) { v.records = r } }

// New checks c, fills its defaults and returns its verifier.
func New(c Config, opts ...Option) (*Verifier, error) {
	c = c.withDefaults()
	if err := c.validate(); err != nil {
		return nil, fmt.Errorf("verifier %s: %w", c.Name, err)
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = c.Concurrency
	v := &Verifier{
		cfg:    c,
		client: &http.Client{Transport: t},
		sem:    make(chan struct{}, c.Concurrency),
		sleep:  httpcall.Sleep,
		rng:    rand.New(rand.NewPCG(c.Seed, 0x72656d6f7465)), // "remote"
	}
	for _, o := range opts {
		o(v)
	}
	return v, nil
}

// NewFromSpec is New of ParseSpec(spec).
func NewFromSpec(spec string, opts ...Option) (*Verifier, error) {
	c, err := ParseSpec(spec)
	if err != nil {
		return nil, err
	}
	return New(c, opts...)
}

// Name is the reward's name.
func (v *Verifier) Name() string { return v.cfg.Name }

// Weight is the reward's default weight.
func (v *Verifier) Weight() float64 { return v.cfg.Weight }

// Config is the verifier's configuration, defaults filled in.
func (v *Verifier) Config() Config { return v.cfg }

// Metrics counts verdicts asked, HTTP requests, retries and failed
// verdicts (unreachable or nonsense), under "verifier/<name>/".
func (v *Verifier) Metrics() map[string]float64 {
	p := "verifier/" + v.cfg.Name + "/"
	return map[string]float64{
		p + "verdicts": float64(v.verdicts.Load()),
		p + "requests": float64(v.requests.Load()),
		p + "retries":  float64(v.retries.Load()),
		p + "errors":   float64(v.errs.Load()),
	}
}

// request is what credo POSTs.
type request struct {
	PromptID string          `json:"prompt_id"`
	Prompt   string          `json:"prompt"`
	Response string          `json:"response"`
	Record   json.RawMessage `json:"record"`
}

// Verify asks the verifier about one response. A failure (unreachable,
// an error status, nonsense) is a zero verdict with the reason, and the
// error.
func (v *Verifier) Verify(ctx context.Context, p reward.Prompt, response string) (reward.Verdict, error) {
	v.verdicts.Add(1)
	req := request{PromptID: p.ID, Prompt: p.Text, Response: byteForByte(response), Record: json.RawMessage("null")}
	if v.records != nil {
		if r, ok := v.records.Record(p); ok && json.Valid(r) {
			req.Record = r
		}
	}
	d, err := v.ask(ctx, req, v.cfg.Retries)
	if err != nil {
		v.errs.Add(1)
		err = fmt.Errorf("verifier %s: %w", v.cfg.Name, err)
		return reward.Verdict{Reason: err.Error()}, err
	}
	return d, nil
}

// byteForByte is s with each byte that is not part of valid UTF-8 made
// '?': JSON would make it U+FFFD, three bytes, and shift the byte offsets
// of the verifier's spans away from the response's.
func byteForByte(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	b := []byte(s)
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			b[i] = '?'
		}
		i += n
	}
	return string(b)
}

// Check sends one probe, an empty prompt and response, without retries:
// a verifier that is down, answers an error status or nonsense stops a
// run before it starts.
func (v *Verifier) Check(ctx context.Context) error {
	if _, err := v.ask(ctx, request{Record: json.RawMessage("null")}, -1); err != nil {
		return fmt.Errorf("verifier %s at %s does not answer a probe: %w", v.cfg.Name, v.cfg.URL, err)
	}
	return nil
}

// ask POSTs req, retrying up to retries times (negative: none) on 429,
// 5xx, network errors and time-outs, and reads the answer.
func (v *Verifier) ask(ctx context.Context, req request, retries int) (reward.Verdict, error) {
	payload, err := json.Marshal(req)
	if err != nil {
		return reward.Verdict{}, fmt.Errorf("encode request: %w", err)
	}
	var last error
	for attempt := 0; ; {
		status, body, header, err := v.post(ctx, payload)
		if ctx.Err() != nil {
			if err == nil || errors.Is(err, ctx.Err()) {
				return reward.Verdict{}, ctx.Err()
			}
			return reward.Verdict{}, fmt.Errorf("%w (last attempt: %v)", ctx.Err(), err)
		}
		wait, hasWait := time.Duration(0), false
		switch {
		case err != nil:
			last = err
		case status == http.StatusOK:
			d, err := ParseAnswer(body, len(req.Response))
			if err != nil {
				return reward.Verdict{}, fmt.Errorf("answered nonsense: %w", err)
			}
			return d, nil
		case httpcall.Retryable(status):
			last = httpcall.NewStatusError(status, body, "")
			wait, hasWait = httpcall.ParseRetryAfter(header.Get("Retry-After"), time.Now())
		default:
			return reward.Verdict{}, httpcall.NewStatusError(status, body, "")
		}
		if attempt >= retries {
			return reward.Verdict{}, fmt.Errorf("gave up after %d attempts: %w", attempt+1, last)
		}
		attempt++
		v.retries.Add(1)
		v.rngMu.Lock()
		u := v.rng.Float64()
		v.rngMu.Unlock()
		if err := v.sleep(ctx, httpcall.Backoff(attempt, v.cfg.BackoffBase, backoffMax, wait, hasWait, u)); err != nil {
			return reward.Verdict{}, fmt.Errorf("%w (while waiting to retry: %v)", err, last)
		}
	}
}

// post sends one attempt under the concurrency bound.
func (v *Verifier) post(ctx context.Context, payload []byte) (int, []byte, http.Header, error) {
	select {
	case v.sem <- struct{}{}:
		defer func() { <-v.sem }()
	case <-ctx.Done():
		return 0, nil, nil, ctx.Err()
	}
	v.requests.Add(1)
	return httpcall.Post(ctx, v.client, v.cfg.URL, nil, payload, v.cfg.Timeout)
}
