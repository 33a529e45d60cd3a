package judge

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/credo-rl/credo/internal/redact"
)

// Schema modes: whether a request asks the server for structured output.
const (
	// SchemaAuto sends response_format and, when the server answers 400
	// naming response_format, retries once without it and stops sending it.
	SchemaAuto = "auto"
	// SchemaOn always sends response_format; a server that rejects it fails the verdict.
	SchemaOn = "on"
	// SchemaOff never sends response_format; the answer's first JSON object is parsed.
	SchemaOff = "off"
)

// Defaults for the fields whose zero value means "use the default".
const (
	DefaultName          = "judge"
	DefaultTimeout       = 30 * time.Second
	DefaultMaxRetries    = 4
	DefaultMaxConcurrent = 4
	DefaultBackoffBase   = 500 * time.Millisecond
	DefaultBackoffMax    = 10 * time.Second
	DefaultCacheSize     = 4096
)

// Config describes one judged metric and the server that judges it. The API
// key is never a field: only the name of the environment variable holding it,
// read at request time, so a marshalled or printed Config never carries it.
//
// Zero values mean the defaults (see WithDefaults); MaxRetries and CacheSize
// use a negative value for "none".
type Config struct {
	Name      string  `json:"name" yaml:"name"`                                   // reward name, also the metric in prompts and metric keys
	URL       string  `json:"url" yaml:"url"`                                     // base URL; requests go to {URL}/chat/completions (a URL already ending so is used as is)
	Model     string  `json:"model" yaml:"model"`                                 // model name sent to the server
	APIKeyEnv string  `json:"api_key_env,omitempty" yaml:"api_key_env,omitempty"` // name of the environment variable with the API key; empty sends none
	Rubric    string  `json:"rubric,omitempty" yaml:"rubric,omitempty"`           // rubric file (plain text); empty uses the built-in rubric
	Weight    float64 `json:"weight,omitempty" yaml:"weight,omitempty"`           // c[k] for the trainer; 0 means 1
	// Min and Max are the score range the judge is told to use; scores are
	// clamped into it and kept in it (not mapped to [0, 1]). Both 0 means 0..1.
	Min float64 `json:"min" yaml:"min"`
	Max float64 `json:"max" yaml:"max"`
	// Timeout bounds each HTTP attempt (not the whole verdict: ctx does that).
	Timeout time.Duration `json:"timeout,omitempty" yaml:"timeout,omitempty"`
	// MaxRetries is the number of retries after the first attempt on 429,
	// 5xx, network errors and time-outs; 0 means 4, negative means none.
	MaxRetries    int     `json:"max_retries,omitempty" yaml:"max_retries,omitempty"`
	MaxConcurrent int     `json:"max_concurrent,omitempty" yaml:"max_concurrent,omitempty"` // in-flight requests per Judge; 0 means 4
	Temperature   float64 `json:"temperature" yaml:"temperature"`
	MaxTokens     int     `json:"max_tokens,omitempty" yaml:"max_tokens,omitempty"`   // 0 leaves it to the server
	Seed          uint64  `json:"seed,omitempty" yaml:"seed,omitempty"`               // seeds the back-off jitter
	SchemaMode    string  `json:"schema_mode,omitempty" yaml:"schema_mode,omitempty"` // auto (default), on, off
	// BackoffBase is the first retry's maximum delay; retry n waits a uniform
	// random time in [0, min(BackoffMax, BackoffBase·2^(n-1))] ("full jitter").
	BackoffBase time.Duration `json:"backoff_base,omitempty" yaml:"backoff_base,omitempty"`
	BackoffMax  time.Duration `json:"backoff_max,omitempty" yaml:"backoff_max,omitempty"` // also caps Retry-After
	// CacheSize bounds the verdict cache (entries, least recently used
	// evicted); 0 means 4096, negative disables the cache.
	CacheSize int `json:"cache_size,omitempty" yaml:"cache_size,omitempty"`
}

// WithDefaults returns c with every zero-means-default field filled in.
func (c Config) WithDefaults() Config {
	if c.Name == "" {
		c.Name = DefaultName
	}
	if c.Weight == 0 {
		c.Weight = 1
	}
	if c.Min == 0 && c.Max == 0 {
		c.Max = 1
	}
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	if c.MaxRetries == 0 {
		c.MaxRetries = DefaultMaxRetries
	}
	if c.MaxConcurrent == 0 {
		c.MaxConcurrent = DefaultMaxConcurrent
	}
	if c.SchemaMode == "" {
		c.SchemaMode = SchemaAuto
	}
	if c.BackoffBase == 0 {
		c.BackoffBase = DefaultBackoffBase
	}
	if c.BackoffMax == 0 {
		c.BackoffMax = DefaultBackoffMax
	}
	if c.CacheSize == 0 {
		c.CacheSize = DefaultCacheSize
	}
	return c
}

// retries is the number of retries after the first attempt.
func (c Config) retries() int { return max(c.MaxRetries, 0) }

// Validate checks a configuration after defaults are applied (it applies
// them itself), so a zero field is never reported as wrong.
func (c Config) Validate() error {
	c = c.WithDefaults()
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	if strings.ContainsAny(c.Name, "/ \t\r\n") {
		bad("name %q: must not contain '/' or whitespace (it is part of metric keys)", c.Name)
	}
	shown, secret := redact.URLs(c.URL) // a message never repeats a password
	switch u, err := url.Parse(c.URL); {
	case c.URL == "":
		bad("url: required (for example http://localhost:8000/v1)")
	case secret || err == nil && u.User != nil:
		bad("url %q: a user name or password in the URL is not allowed (it would be saved in config.json and printed in messages): put the API key in an environment variable and name it with key_env=", shown)
	case err != nil:
		bad("url %q: %v", shown, redact.String(err.Error()))
	case (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		bad("url %q: want http:// or https:// with a host", shown)
	}
	if c.Model == "" {
		bad("model: required (the name the server knows the judge model by)")
	}
	if strings.ContainsAny(c.APIKeyEnv, "= \t\r\n") {
		bad("key_env %q: must be the name of an environment variable, not its value", c.APIKeyEnv)
	}
	if !finite(c.Weight) || c.Weight < 0 {
		bad("weight %v: must be a finite number ≥ 0", c.Weight)
	}
	if !finite(c.Min) || !finite(c.Max) || c.Min >= c.Max {
		bad("score range [%v, %v]: want finite min < max", c.Min, c.Max)
	}
	if c.Timeout < 0 {
		bad("timeout %v: must be positive", c.Timeout)
	}
	if c.MaxConcurrent < 0 {
		bad("max_concurrent %d: must be positive", c.MaxConcurrent)
	}
	if !finite(c.Temperature) || c.Temperature < 0 {
		bad("temperature %v: must be a finite number ≥ 0", c.Temperature)
	}
	if c.MaxTokens < 0 {
		bad("max_tokens %d: must be ≥ 0", c.MaxTokens)
	}
	switch c.SchemaMode {
	case SchemaAuto, SchemaOn, SchemaOff:
	default:
		bad("schema_mode %q: want auto, on or off", c.SchemaMode)
	}
	if c.BackoffBase < 0 || c.BackoffMax < 0 {
		bad("back-off %v..%v: must be positive", c.BackoffBase, c.BackoffMax)
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("judge config: %w", err)
	}
	return nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// String renders c as a spec that ParseSpec reads back (defaults filled in).
// It names the key's environment variable, never the key.
func (c Config) String() string {
	c = c.WithDefaults()
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	kv := [][2]string{
		{"name", c.Name}, {"url", c.URL}, {"model", c.Model},
		{"key_env", c.APIKeyEnv}, {"rubric", c.Rubric},
		{"weight", f(c.Weight)}, {"min", f(c.Min)}, {"max", f(c.Max)},
		{"timeout", c.Timeout.String()}, {"retries", strconv.Itoa(c.retries())},
		{"concurrency", strconv.Itoa(c.MaxConcurrent)}, {"temperature", f(c.Temperature)},
		{"max_tokens", strconv.Itoa(c.MaxTokens)}, {"seed", strconv.FormatUint(c.Seed, 10)},
		{"schema", c.SchemaMode}, {"backoff", c.BackoffBase.String()},
		{"backoff_max", c.BackoffMax.String()}, {"cache", strconv.Itoa(max(c.CacheSize, 0))},
	}
	var b strings.Builder
	for _, p := range kv {
		if p[1] == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(p[0] + "=" + p[1])
	}
	return b.String()
}

// configJSON overrides Config's durations with strings ("30s"): the
// nanosecond integers time.Duration marshals to are unreadable in config.json.
type configJSON struct {
	plainConfig
	Timeout     string `json:"timeout,omitempty"`
	BackoffBase string `json:"backoff_base,omitempty"`
	BackoffMax  string `json:"backoff_max,omitempty"`
}

type plainConfig Config // no methods, so no MarshalJSON recursion

// MarshalJSON writes durations as Go duration strings ("30s").
func (c Config) MarshalJSON() ([]byte, error) {
	d := func(x time.Duration) string {
		if x == 0 {
			return ""
		}
		return x.String()
	}
	return json.Marshal(configJSON{plainConfig(c), d(c.Timeout), d(c.BackoffBase), d(c.BackoffMax)})
}

// UnmarshalJSON reads durations as Go duration strings ("30s", "1m").
func (c *Config) UnmarshalJSON(data []byte) error {
	var j configJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return fmt.Errorf("judge config: %w", err)
	}
	*c = Config(j.plainConfig)
	for _, f := range []struct {
		name string
		s    string
		dst  *time.Duration
	}{{"timeout", j.Timeout, &c.Timeout}, {"backoff_base", j.BackoffBase, &c.BackoffBase}, {"backoff_max", j.BackoffMax, &c.BackoffMax}} {
		*f.dst = 0
		if f.s == "" {
			continue
		}
		d, err := time.ParseDuration(f.s)
		if err != nil {
			return fmt.Errorf("judge config: %s: %w", f.name, err)
		}
		*f.dst = d
	}
	return nil
}
