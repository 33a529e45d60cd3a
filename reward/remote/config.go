package remote

import (
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/credo-rl/credo/internal/redact"
)

// Config is one remote verifier. Zero values mean the defaults.
type Config struct {
	Name string // the reward's name
	URL  string // where to POST, http or https
	// Timeout bounds one attempt (30s).
	Timeout time.Duration
	// Retries is the attempts after the first (2); negative means none.
	Retries int
	// BackoffBase is the first retry's largest wait (500ms), doubling up
	// to 10s; a Retry-After header is followed instead.
	BackoffBase time.Duration
	// Concurrency bounds the requests in flight (8).
	Concurrency int
	// Weight is the reward's default c[k] (1).
	Weight float64
	// Seed draws the back-off jitter.
	Seed uint64
}

const backoffMax = 10 * time.Second

// withDefaults fills the zero fields.
func (c Config) withDefaults() Config {
	if c.Timeout == 0 {
		c.Timeout = 30 * time.Second
	}
	if c.Retries == 0 {
		c.Retries = 2
	}
	if c.BackoffBase == 0 {
		c.BackoffBase = 500 * time.Millisecond
	}
	if c.Concurrency == 0 {
		c.Concurrency = 8
	}
	if c.Weight == 0 {
		c.Weight = 1
	}
	return c
}

// validate checks a configuration with its defaults.
func (c Config) validate() error {
	if c.Name == "" {
		return fmt.Errorf("name: required (the reward's name)")
	}
	u, err := url.Parse(c.URL)
	switch {
	case c.URL == "":
		return fmt.Errorf("url: required (where the verifier listens, http://127.0.0.1:PORT/path)")
	case err != nil:
		return fmt.Errorf("url: %w", err)
	case u.Scheme != "http" && u.Scheme != "https" || u.Host == "":
		return fmt.Errorf("url %s: want http:// or https:// and a host", redact.String(c.URL))
	case u.User != nil:
		return fmt.Errorf("url %s: holds a user name or password, which would be logged and saved with the run", redact.String(c.URL))
	case c.Timeout < 0, c.BackoffBase < 0:
		return fmt.Errorf("timeout and backoff must be positive")
	case c.Concurrency < 0:
		return fmt.Errorf("concurrency must be positive")
	case math.IsNaN(c.Weight) || math.IsInf(c.Weight, 0):
		return fmt.Errorf("weight must be finite")
	}
	return nil
}

// ParseSpec reads "name=N,url=U[,timeout=D][,retries=N][,backoff=D][,concurrency=N][,weight=X][,seed=N]".
// retries=0 means no retries. An unknown key's error lists the known ones.
func ParseSpec(spec string) (Config, error) {
	var c Config
	seen := map[string]bool{}
	for _, kv := range strings.Split(spec, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok || v == "" {
			return c, fmt.Errorf("verifier spec %q: %q is not key=value", redact.String(spec), redact.String(kv))
		}
		if seen[k] {
			return c, fmt.Errorf("verifier spec: %s given twice", k)
		}
		seen[k] = true
		if err := setKey(&c, k, v); err != nil {
			return c, fmt.Errorf("verifier spec: %s: %w", k, err)
		}
	}
	return c, nil
}

func setKey(c *Config, k, v string) error {
	var err error
	switch k {
	case "name":
		c.Name = v
	case "url":
		c.URL = v
	case "timeout":
		c.Timeout, err = positiveDuration(v)
	case "backoff":
		c.BackoffBase, err = positiveDuration(v)
	case "retries":
		n, e := strconv.Atoi(v)
		if e != nil || n < 0 {
			return fmt.Errorf("want a count ≥ 0, got %q", v)
		}
		c.Retries = n
		if n == 0 {
			c.Retries = -1 // 0 means the default
		}
	case "concurrency":
		n, e := strconv.Atoi(v)
		if e != nil || n < 1 {
			return fmt.Errorf("want a count ≥ 1, got %q", v)
		}
		c.Concurrency = n
	case "weight":
		c.Weight, err = strconv.ParseFloat(v, 64)
		if err == nil && (math.IsNaN(c.Weight) || math.IsInf(c.Weight, 0)) {
			err = fmt.Errorf("want a finite number")
		}
	case "seed":
		c.Seed, err = strconv.ParseUint(v, 10, 64)
	default:
		return fmt.Errorf("unknown key (known: name, url, timeout, retries, backoff, concurrency, weight, seed)")
	}
	return err
}

func positiveDuration(v string) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("want a positive duration such as 10s, got %q", v)
	}
	return d, nil
}
