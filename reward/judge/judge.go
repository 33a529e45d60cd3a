package judge

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/credo-rl/credo/internal/boundedread"
	"github.com/credo-rl/credo/internal/httpcall"
	"github.com/credo-rl/credo/reward"
)

func init() {
	reward.Register("judge", func(spec string) (reward.Verifier, error) {
		c, err := ParseSpec(spec)
		if err != nil {
			return nil, err
		}
		return New(c)
	})
}

// Judge scores responses on one metric by asking an OpenAI-compatible
// chat-completions server. It is safe for concurrent use.
type Judge struct {
	cfg      Config
	rubric   string // the criteria: the verdict's information block
	endpoint string
	client   *http.Client
	sleep    func(context.Context, time.Duration) error

	sem      chan struct{} // one token per in-flight request
	noSchema atomic.Bool   // auto mode saw the server reject response_format

	rngMu sync.Mutex
	rng   *rand.Rand // back-off jitter

	mu     sync.Mutex // guards cache and flying
	cache  *lru
	flying map[cacheKey]*flight

	m counters
}

// counters are cumulative since New.
type counters struct {
	verdicts, requests, cacheHits, retries, errors, quotesFound, quotesDropped atomic.Int64
}

// Option adjusts a Judge beyond its Config.
type Option func(*Judge)

// WithHTTPClient sends requests through c (tests pass httptest's client).
// The default is a client without a global time-out: Config.Timeout bounds
// each attempt through its context.
func WithHTTPClient(c *http.Client) Option { return func(j *Judge) { j.client = c } }

// withSleep replaces the back-off wait (tests record the delays instead).
func withSleep(f func(context.Context, time.Duration) error) Option {
	return func(j *Judge) { j.sleep = f }
}

// New checks c, fills in its defaults and reads the rubric file (once).
func New(c Config, opts ...Option) (*Judge, error) {
	c = c.WithDefaults()
	if err := c.Validate(); err != nil {
		return nil, err
	}
	rubric := BuiltinRubric
	if c.Rubric != "" {
		b, err := boundedread.ReadFile(c.Rubric, boundedread.Rubric)
		if err != nil {
			return nil, fmt.Errorf("judge %s: read rubric: %w", c.Name, err)
		}
		if rubric = strings.TrimSpace(string(b)); rubric == "" {
			return nil, fmt.Errorf("judge %s: rubric file %s is empty", c.Name, c.Rubric)
		}
	}
	j := &Judge{
		cfg:      c,
		rubric:   rubric,
		endpoint: endpoint(c.URL),
		client:   &http.Client{Transport: transport(c.MaxConcurrent)},
		sleep:    httpcall.Sleep,
		sem:      make(chan struct{}, c.MaxConcurrent),
		rng:      rand.New(rand.NewPCG(c.Seed, 0x6a75646765)), // stream: "judge"
		cache:    newLRU(c.CacheSize),
		flying:   map[cacheKey]*flight{},
	}
	for _, o := range opts {
		o(j)
	}
	return j, nil
}

// endpoint is the chat-completions URL for a base URL.
func endpoint(base string) string {
	base = strings.TrimRight(base, "/")
	if strings.HasSuffix(base, "/chat/completions") {
		return base
	}
	return base + "/chat/completions"
}

// transport keeps as many idle connections to the server as requests may be
// in flight (the default keeps 2, so a busy judge would reconnect).
func transport(conns int) http.RoundTripper {
	t, ok := http.DefaultTransport.(*http.Transport)
	if !ok {
		return http.DefaultTransport
	}
	t = t.Clone()
	t.MaxIdleConnsPerHost = conns
	return t
}

// Name is the reward's name (Config.Name).
func (j *Judge) Name() string { return j.cfg.Name }

// Weight is the reward's weight c[k] for the trainer.
func (j *Judge) Weight() float64 { return j.cfg.Weight }

// A judge has a default weight and metrics of its own: the trainer finds
// them through these interfaces.
var (
	_ reward.Weighted = (*Judge)(nil)
	_ reward.Reporter = (*Judge)(nil)
)

// Config returns the configuration with defaults filled in (no API key).
func (j *Judge) Config() Config { return j.cfg }

// Rubric is the text of the judge's criteria, which every verdict carries as
// its information block.
func (j *Judge) Rubric() string { return j.rubric }

// Verify asks the judge for a score and the quotes behind it. Score is the
// judge's number clamped to [Min, Max] (kept in that range, not mapped to
// [0, 1]); Spans are the located quotes, strength 1, with the effect the
// judge gave each ("+" reward.Raised, "−" reward.Lowered: the span source
// credits good parts positively and bad parts negatively); Info is the
// rubric. Identical
// (metric, prompt, response) triples are answered from the cache, and
// concurrent identical calls share one request.
//
// When the judge cannot be had (retries exhausted, time-outs, a malformed
// answer twice, a client error), Verify returns Score 0 with the reason AND
// a non-nil error wrapping the cause: the trainer logs it, scores the
// response 0 and goes on.
func (j *Judge) Verify(ctx context.Context, p reward.Prompt, response string) (reward.Verdict, error) {
	j.m.verdicts.Add(1)
	k := keyOf(j.cfg.Name, p.Text, response)
	for {
		j.mu.Lock()
		if v, ok := j.cache.get(k); ok {
			j.mu.Unlock()
			j.m.cacheHits.Add(1)
			return v, nil
		}
		if f, ok := j.flying[k]; ok {
			j.mu.Unlock()
			select {
			case <-f.done:
			case <-ctx.Done():
				return j.fail(fmt.Errorf("waiting for an identical request: %w", ctx.Err()))
			}
			if f.abandoned && ctx.Err() == nil {
				continue // the leader gave up for its own reasons; try again
			}
			if f.err == nil {
				j.m.cacheHits.Add(1)
			} else {
				j.m.errors.Add(1)
			}
			return clone(f.v), f.err
		}
		f := &flight{done: make(chan struct{})}
		j.flying[k] = f
		j.mu.Unlock()

		return j.lead(ctx, k, f, p, response)
	}
}

// lead computes the verdict for a flight and lands it, even if judging
// panics, so that no waiter is left waiting.
func (j *Judge) lead(ctx context.Context, k cacheKey, f *flight, p reward.Prompt, response string) (reward.Verdict, error) {
	f.abandoned = true // until judge returns
	defer func() {
		j.mu.Lock()
		delete(j.flying, k)
		if f.err == nil && !f.abandoned {
			j.cache.add(k, f.v)
		}
		j.mu.Unlock()
		close(f.done)
	}()
	f.v, f.err = j.judge(ctx, p, response)
	f.abandoned = f.err != nil && ctx.Err() != nil
	return clone(f.v), f.err
}

// judge computes one verdict. A malformed answer is asked for once more:
// sampling noise (or a stray token) rarely strikes twice.
func (j *Judge) judge(ctx context.Context, p reward.Prompt, response string) (reward.Verdict, error) {
	if err := ctx.Err(); err != nil {
		return j.fail(err)
	}
	msgs := messages(j.rubric, j.cfg.Min, j.cfg.Max, p.Text, response)
	var a answer
	for try := 0; ; try++ {
		text, err := j.complete(ctx, msgs)
		if err == nil {
			a, err = parseAnswer(text)
		}
		if err == nil {
			break
		}
		if !errors.Is(err, ErrMalformed) || try == 1 || ctx.Err() != nil {
			return j.fail(err)
		}
		j.m.retries.Add(1)
	}
	v := reward.Verdict{Score: clamp(a.Score, j.cfg.Min, j.cfg.Max), Info: j.rubric}
	quotes := len(a.Quotes) + a.Invalid
	var dropped int
	v.Spans, dropped = LocateEffects(response, a.Quotes, a.Effects)
	dropped += a.Invalid
	j.m.quotesFound.Add(int64(quotes - dropped))
	j.m.quotesDropped.Add(int64(dropped))
	if a.Score != v.Score {
		v.Reason = fmt.Sprintf("judge score %v clamped to [%v, %v]", a.Score, j.cfg.Min, j.cfg.Max)
	}
	if dropped > 0 {
		v.Reason = strings.TrimPrefix(v.Reason+fmt.Sprintf("; %d of %d quotes not found in the response", dropped, quotes), "; ")
	}
	return v, nil
}

// fail is the verdict for a judge that could not be had: score 0, the
// reason, and the error for the trainer to log.
func (j *Judge) fail(err error) (reward.Verdict, error) {
	j.m.errors.Add(1)
	err = fmt.Errorf("judge %s: %w", j.cfg.Name, err)
	return reward.Verdict{Score: 0, Info: j.rubric, Reason: err.Error()}, err
}

// clamp keeps x in [lo, hi].
func clamp(x, lo, hi float64) float64 { return math.Min(math.Max(x, lo), hi) }

// Metrics returns the cumulative counters under judge/<name>/: verdicts
// (Verify calls), requests (HTTP attempts sent), cache_hits (verdicts served
// without a request: cached or shared with a concurrent identical call),
// retries (attempts beyond the first, including a malformed answer asked
// again), errors (failed verdicts), quotes_found and quotes_dropped.
func (j *Judge) Metrics() map[string]float64 {
	p := "judge/" + j.cfg.Name + "/"
	return map[string]float64{
		p + "verdicts":       float64(j.m.verdicts.Load()),
		p + "requests":       float64(j.m.requests.Load()),
		p + "cache_hits":     float64(j.m.cacheHits.Load()),
		p + "retries":        float64(j.m.retries.Load()),
		p + "errors":         float64(j.m.errors.Load()),
		p + "quotes_found":   float64(j.m.quotesFound.Load()),
		p + "quotes_dropped": float64(j.m.quotesDropped.Load()),
	}
}
