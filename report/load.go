package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"

	"github.com/credo-rl/credo/internal/boundedread"
	"github.com/credo-rl/credo/run"
)

// Defaults for a comparison that does not set them (and for a single run).
const (
	DefaultThreshold = 0.8
	DefaultWindow    = 5
)

// Step is one line of metrics.jsonl: its numeric values by key. A value
// that is null (a NaN the trainer could not write) or not a number is
// absent.
type Step = run.Metrics

// Sample is one logged rollout, one line of samples.jsonl.
type Sample = run.Sample

// Verdict is one reward's verdict on a logged rollout.
type Verdict = run.Verdict

// Run is one training run directory.
type Run struct {
	Dir    string
	Task   string
	Method string
	Seed   uint64
	Steps  int // the configured number of steps (0: unknown)
	// Metrics[i] is step i+1 (steps count from 1); a step without a
	// line is nil.
	Metrics []Step
	Samples []Sample
	// Incomplete says the run logged fewer steps than configured (it was
	// stopped, or is still going); its numbers use the steps it has.
	Incomplete bool
}

// LoadRun reads a run directory: config.json and metrics.jsonl are
// required, samples.jsonl is optional.
func LoadRun(dir string) (*Run, error) {
	var cfg run.Info
	if err := run.ReadJSON(filepath.Join(dir, run.ConfigFile), &cfg); err != nil {
		return nil, fmt.Errorf("run %s: %w", dir, err)
	}
	r := &Run{Dir: dir, Task: cfg.Task, Method: cfg.Method, Seed: cfg.Seed, Steps: cfg.Steps}
	f, err := boundedread.OpenLimited(filepath.Join(dir, run.MetricsFile), boundedread.Log)
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", dir, err)
	}
	r.Metrics, err = ParseMetrics(f)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("run %s: %s: %w", dir, run.MetricsFile, err)
	}
	f, err = boundedread.OpenLimited(filepath.Join(dir, run.SamplesFile), boundedread.Log)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return nil, fmt.Errorf("run %s: %w", dir, err)
	default:
		r.Samples, err = ParseSamples(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("run %s: %s: %w", dir, run.SamplesFile, err)
		}
	}
	// The trainer numbers steps from 1 (as checkpoints and the progress bar
	// do); runs written before it did start at 0. Metrics[i] holds step
	// i+1 and samples keep the step they were logged with, 1-based.
	if len(r.Metrics) > 0 && r.Metrics[0] == nil {
		r.Metrics = r.Metrics[1:]
	} else if len(r.Metrics) > 0 {
		for i := range r.Samples {
			r.Samples[i].Step++
		}
	}
	r.Incomplete = len(r.Metrics) < r.Steps
	return r, nil
}

// ParseMetrics reads metrics.jsonl: one run.Metrics per line. The result
// is indexed by step; a later line for the same step replaces an earlier
// one, and a missing step is nil (a resumed trainer refuses such a file;
// the report shows what it has).
func ParseMetrics(r io.Reader) ([]Step, error) {
	var out []Step
	err := run.ScanLines(r, func(_ int, line []byte) error {
		var st Step
		if err := json.Unmarshal(line, &st); err != nil {
			return err
		}
		s := st.Step()
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
	err := run.ScanLines(r, func(_ int, line []byte) error {
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
			if name, stat, ok := run.ParseRewardKey(k); ok && stat == "mean" && name != run.TotalReward && name != "" && !seen[name] {
				seen[name] = true
				rest = append(rest, name)
			}
		}
	}
	sort.Strings(rest)
	return append(out, rest...)
}
