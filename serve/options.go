package serve

import (
	"context"
	"io"

	"github.com/credo-rl/credo/sample"
)

// Defaults for the Options fields whose zero value means "use the default".
const (
	DefaultName         = "credo"
	DefaultMaxTokens    = 256
	DefaultMaxN         = 8
	DefaultMaxQueue     = 16
	DefaultMaxBodyBytes = 1 << 20
	// MaxStop is the most stop sequences a request may give (OpenAI's limit).
	MaxStop = 4
)

// GenerateFunc samples n responses to one rendered prompt. The default is
// the policy's own Generate; tests replace it to force an output.
type GenerateFunc func(ctx context.Context, prompt string, n int, c sample.Config) ([]sample.Response, error)

// Options configure a Handler. Zero values mean the defaults.
type Options struct {
	// Name is the one model name the server answers to: GET /v1/models
	// lists it, responses carry it, and a request naming another model is
	// refused (404 model_not_found) so that a client pointed at the wrong
	// server finds out. A request without a model gets this one.
	// Default "credo".
	Name string
	// MaxTokens is the completion length of a request that sets no
	// max_tokens, and the most one may ask for (more is a 400). Default 256.
	MaxTokens int
	// MaxN is the most choices (n) one request may ask for. Default 8.
	MaxN int
	// MaxQueue is how many requests may wait for the model while one is
	// generating; more are refused with 503 and Retry-After. 0 means 16,
	// negative means none may wait.
	MaxQueue int
	// MaxBodyBytes bounds a request body (larger is a 413). Default 1 MiB.
	MaxBodyBytes int64
	// APIKey, when set, is required as "Authorization: Bearer APIKey" on
	// every request (else 401).
	APIKey string
	// StrictSchema refuses response_format json_object and json_schema with
	// a 400 that names response_format (a client such as the judge then asks
	// again without it). Off, they are accepted and ignored: a small policy
	// cannot be constrained to a schema.
	StrictSchema bool
	// Seed seeds the sampling seeds of requests that send none: the k-th
	// such request gets the k-th number of a PCG stream seeded by Seed, so a
	// run replays given the same request order.
	Seed uint64
	// Log, when set, receives one line per request: method, path, status,
	// completion tokens and time taken.
	Log io.Writer
	// Generate replaces the policy's generation (nil: the policy's).
	Generate GenerateFunc
}

// withDefaults fills in the zero-means-default fields.
func (o Options) withDefaults() Options {
	if o.Name == "" {
		o.Name = DefaultName
	}
	if o.MaxTokens <= 0 {
		o.MaxTokens = DefaultMaxTokens
	}
	if o.MaxN <= 0 {
		o.MaxN = DefaultMaxN
	}
	switch {
	case o.MaxQueue == 0:
		o.MaxQueue = DefaultMaxQueue
	case o.MaxQueue < 0:
		o.MaxQueue = 0
	}
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = DefaultMaxBodyBytes
	}
	return o
}
