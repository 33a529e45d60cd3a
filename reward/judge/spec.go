package judge

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/credo-rl/credo/internal/redact"
)

// specKeys maps each spec key to the Config field it sets. Counts of retries
// and cache entries read 0 as "none" (stored as -1, since 0 means the default).
var specKeys = map[string]func(c *Config, v string) error{
	"name":    func(c *Config, v string) error { c.Name = v; return nil },
	"url":     func(c *Config, v string) error { c.URL = v; return nil },
	"model":   func(c *Config, v string) error { c.Model = v; return nil },
	"key_env": func(c *Config, v string) error { c.APIKeyEnv = v; return nil },
	"rubric":  func(c *Config, v string) error { c.Rubric = v; return nil },
	"schema":  func(c *Config, v string) error { c.SchemaMode = v; return nil },
	"weight":  floatKey(func(c *Config) *float64 { return &c.Weight }),
	"min":     floatKey(func(c *Config) *float64 { return &c.Min }),
	"max":     floatKey(func(c *Config) *float64 { return &c.Max }),
	"temperature": floatKey(func(c *Config) *float64 {
		return &c.Temperature
	}),
	"timeout":     durationKey(func(c *Config) *time.Duration { return &c.Timeout }),
	"backoff":     durationKey(func(c *Config) *time.Duration { return &c.BackoffBase }),
	"backoff_max": durationKey(func(c *Config) *time.Duration { return &c.BackoffMax }),
	"retries":     countKey(func(c *Config) *int { return &c.MaxRetries }, zeroIsNone),
	"cache":       countKey(func(c *Config) *int { return &c.CacheSize }, zeroIsNone),
	"concurrency": countKey(func(c *Config) *int { return &c.MaxConcurrent }, zeroIsBad),
	"max_tokens":  countKey(func(c *Config) *int { return &c.MaxTokens }, zeroIsZero),
	"seed": func(c *Config, v string) error {
		s, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return fmt.Errorf("want a non-negative integer")
		}
		c.Seed = s
		return nil
	},
}

func floatKey(field func(*Config) *float64) func(*Config, string) error {
	return func(c *Config, v string) error {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("want a finite number")
		}
		*field(c) = x
		return nil
	}
}

func durationKey(field func(*Config) *time.Duration) func(*Config, string) error {
	return func(c *Config, v string) error {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return fmt.Errorf("want a positive duration such as 30s or 500ms")
		}
		*field(c) = d
		return nil
	}
}

// What a count of 0 in a spec means.
const (
	zeroIsZero = iota // 0 (max_tokens: the server's default)
	zeroIsNone        // stored as -1, "none", since a zero field means the default
	zeroIsBad         // an error (concurrency)
)

// countKey parses a non-negative integer, reading 0 as zero says.
func countKey(field func(*Config) *int, zero int) func(*Config, string) error {
	return func(c *Config, v string) error {
		n, err := strconv.Atoi(v)
		switch {
		case err != nil || n < 0:
			return fmt.Errorf("want a non-negative integer")
		case n == 0 && zero == zeroIsNone:
			n = -1
		case n == 0 && zero == zeroIsBad:
			return fmt.Errorf("want a positive integer")
		}
		*field(c) = n
		return nil
	}
}

// SpecKeys lists the keys ParseSpec accepts, sorted.
func SpecKeys() []string {
	keys := make([]string, 0, len(specKeys))
	for k := range specKeys {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// ParseSpec reads a comma-separated list of key=value pairs, as given to
// --judge: name, url, model, key_env (the NAME of the environment variable
// holding the API key), rubric (a file), weight, min, max, timeout, retries,
// concurrency, temperature, max_tokens, seed, schema (auto|on|off), backoff,
// backoff_max, cache. A value runs to the next comma and may contain '='.
// Unset keys take their defaults; the result is validated.
func ParseSpec(spec string) (Config, error) {
	var c Config
	seen := map[string]bool{}
	for item := range strings.SplitSeq(spec, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue // a trailing or doubled comma
		}
		k, v, ok := strings.Cut(item, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok {
			return Config{}, fmt.Errorf("judge spec: %q is not key=value", redact.String(item))
		}
		set, known := specKeys[k]
		if !known {
			return Config{}, fmt.Errorf("judge spec: unknown key %q (known: %s)", k, strings.Join(SpecKeys(), ", "))
		}
		if seen[k] {
			return Config{}, fmt.Errorf("judge spec: key %q given twice", k)
		}
		seen[k] = true
		if err := set(&c, v); err != nil {
			return Config{}, fmt.Errorf("judge spec: %s=%q: %w", k, redact.String(v), err)
		}
	}
	c = c.WithDefaults()
	if err := c.Validate(); err != nil {
		return Config{}, err
	}
	return c, nil
}
