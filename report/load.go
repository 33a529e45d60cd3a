package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/credo-rl/credo/reward"
)

// Defaults for a comparison that does not set them (and for a single run).
const (
	DefaultThreshold = 0.8
	DefaultWindow    = 5
)

// maxStep bounds the step numbers a metrics file may use, so a corrupt
// line cannot make the reader allocate without limit.
const maxStep = 1 << 20

// Step is one line of metrics.jsonl: its numeric values by key. A value
// that is null (a NaN the trainer could not write) or not a number is
// absent.
type Step map[string]float64

// Sample is one logged rollout, one line of samples.jsonl. It mirrors
// rl.SampleRecord field for field (a test keeps them in step).
type Sample struct {
	Step       int                  `json:"step"`
	Index      int                  `json:"index"`
	Prompt     string               `json:"prompt"`
	Response   string               `json:"response"`
	Tokens     []string             `json:"tokens"`
	Offsets    [][2]int             `json:"offsets"`
	Advantages []float64            `json:"advantages"`
	Advantage  float64              `json:"advantage"`
	Relevance  map[string][]float64 `json:"relevance,omitempty"`
	Verdicts   []Verdict            `json:"verdicts"`
}

// Verdict is one reward's verdict on a logged rollout (rl.VerdictRecord).
type Verdict struct {
	Reward string        `json:"reward"`
	Score  float64       `json:"score"`
	Info   string        `json:"info,omitempty"`
	Spans  []reward.Span `json:"spans,omitempty"`
	Reason string        `json:"reason,omitempty"`
	Skip   bool          `json:"skip,omitempty"`
}

// Run is one training run directory.
type Run struct {
	Dir    string
	Task   string
	Method string
	Seed   uint64
	Steps  int // the configured number of steps (0: unknown)
	// Metrics[s] is step s (0-based); a step without a line is nil.
	Metrics []Step
	Samples []Sample
	// Incomplete says the run logged fewer steps than configured (it was
	// stopped, or is still going); its numbers use the steps it has.
	Incomplete bool
}

// runConfig is the part of config.json (rl.Config) the report shows.
type runConfig struct {
	Task   string `json:"task"`
	Method string `json:"method"`
	Steps  int    `json:"steps"`
	Seed   uint64 `json:"seed"`
}

// LoadRun reads a run directory: config.json and metrics.jsonl are
// required, samples.jsonl is optional.
func LoadRun(dir string) (*Run, error) {
	var cfg runConfig
	data, err := os.ReadFile(filepath.Join(dir, "config.json"))
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", dir, err)
	}
	if err := json.Unmarshal(data, &cfg); err != nil {
		return nil, fmt.Errorf("run %s: config.json: %w", dir, err)
	}
	r := &Run{Dir: dir, Task: cfg.Task, Method: cfg.Method, Seed: cfg.Seed, Steps: cfg.Steps}
	f, err := os.Open(filepath.Join(dir, "metrics.jsonl"))
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", dir, err)
	}
	r.Metrics, err = ParseMetrics(f)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("run %s: metrics.jsonl: %w", dir, err)
	}
	f, err = os.Open(filepath.Join(dir, "samples.jsonl"))
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return nil, fmt.Errorf("run %s: %w", dir, err)
	default:
		r.Samples, err = ParseSamples(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("run %s: samples.jsonl: %w", dir, err)
		}
	}
	// The trainer numbers steps from 1 (as checkpoints and the progress bar
	// do); runs written before it did start at 0. The report counts from 0.
	if len(r.Metrics) > 0 && r.Metrics[0] == nil {
		r.Metrics = r.Metrics[1:]
		for i := range r.Samples {
			r.Samples[i].Step--
		}
	}
	r.Incomplete = len(r.Metrics) < r.Steps
	return r, nil
}

// lines calls fn on each non-blank line of r with its 1-based number.
func lines(r io.Reader, fn func(n int, line []byte) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	n := 0
	for sc.Scan() {
		n++
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		if err := fn(n, sc.Bytes()); err != nil {
			return fmt.Errorf("line %d: %w", n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("after line %d: %w", n, err)
	}
	return nil
}

// ParseMetrics reads metrics.jsonl: one JSON object per step with an
// integer "step" (0-based). The result is indexed by step; a later line
// for the same step replaces an earlier one, and a missing step is nil.
func ParseMetrics(r io.Reader) ([]Step, error) {
	var out []Step
	err := lines(r, func(_ int, line []byte) error {
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			return err
		}
		if m == nil {
			return fmt.Errorf("want a JSON object")
		}
		sv, ok := m["step"].(float64)
		if !ok {
			return fmt.Errorf(`no numeric "step"`)
		}
		if sv < 0 || sv >= maxStep || sv != math.Trunc(sv) {
			return fmt.Errorf("step %v: want an integer in [0, %d)", sv, maxStep)
		}
		st := make(Step, len(m))
		for k, v := range m {
			if f, ok := v.(float64); ok {
				st[k] = f
			}
		}
		s := int(sv)
		for len(out) <= s {
			out = append(out, nil)
		}
		out[s] = st
		return nil
	})
	return out, err
}

// ParseSamples reads samples.jsonl: one Sample per line.
func ParseSamples(r io.Reader) ([]Sample, error) {
	var out []Sample
	err := lines(r, func(_ int, line []byte) error {
		var s Sample
		if err := json.Unmarshal(line, &s); err != nil {
			return err
		}
		out = append(out, s)
		return nil
	})
	return out, err
}

// Series is the value of key at every logged step, NaN where absent.
func (r *Run) Series(key string) []float64 {
	out := make([]float64, len(r.Metrics))
	for s, st := range r.Metrics {
		v, ok := st[key]
		if !ok {
			v = math.NaN()
		}
		out[s] = v
	}
	return out
}

// Rewards are the run's reward names: those of its samples' verdicts in
// the task's order, then any other reward/<name>/mean key sorted ("total"
// is not a reward).
func (r *Run) Rewards() []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range r.Samples {
		for _, v := range s.Verdicts {
			if v.Reward != "" && !seen[v.Reward] {
				seen[v.Reward] = true
				out = append(out, v.Reward)
			}
		}
	}
	var rest []string
	for _, st := range r.Metrics {
		for k := range st {
			name, ok := strings.CutPrefix(k, "reward/")
			if !ok {
				continue
			}
			if name, ok = strings.CutSuffix(name, "/mean"); ok && name != "total" && name != "" && !seen[name] {
				seen[name] = true
				rest = append(rest, name)
			}
		}
	}
	sort.Strings(rest)
	return append(out, rest...)
}
