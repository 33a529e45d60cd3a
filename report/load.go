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
	Dir        string
	Task       string
	Difficulty string // the task's difficulty settings (config.json; "": its defaults)
	Method     string
	Seed       uint64
	// Warmup is the index (1 …) of the run's warm-up in a comparison with
	// several (run.ManifestRun.Warmup); 0 with one.
	Warmup int
	Steps  int // the configured number of steps (0: unknown)
	// Metrics[i] is step i+1 (steps count from 1); a step without a
	// line is nil.
	Metrics []Step
	Samples []Sample
	// Evals are the run's evaluations with each test prompt's greedy
	// score (evals.jsonl), in file order; nil for a run written before the
	// file existed.
	Evals []run.EvalRecord
	// Incomplete says the run logged fewer steps than configured (it was
	// stopped, or is still going); its numbers use the steps it has.
	Incomplete bool
}

// LoadRun reads a run directory: config.json and metrics.jsonl are
// required, samples.jsonl and evals.jsonl are optional.
func LoadRun(dir string) (*Run, error) {
	var cfg struct {
		run.Info
		Difficulty string `json:"difficulty"`
	}
	if err := run.ReadJSON(filepath.Join(dir, run.ConfigFile), &cfg); err != nil {
		return nil, fmt.Errorf("run %s: %w", dir, err)
	}
	r := &Run{Dir: dir, Task: cfg.Task, Difficulty: cfg.Difficulty, Method: cfg.Method, Seed: cfg.Seed, Steps: cfg.Steps}
	f, err := boundedread.OpenLimited(filepath.Join(dir, run.MetricsFile), boundedread.Log)
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", dir, err)
	}
	r.Metrics, err = ParseMetrics(f)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("run %s: %s: %w", dir, run.MetricsFile, err)
	}
	if r.Samples, err = loadOptional(filepath.Join(dir, run.SamplesFile), ParseSamples); err != nil {
		return nil, fmt.Errorf("run %s: %s: %w", dir, run.SamplesFile, err)
	}
	if r.Evals, err = loadOptional(filepath.Join(dir, run.EvalsFile), ParseEvals); err != nil {
		return nil, fmt.Errorf("run %s: %s: %w", dir, run.EvalsFile, err)
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

// loadOptional parses the file at path, or gives nil when there is none.
func loadOptional[T any](path string, parse func(io.Reader) ([]T, error)) ([]T, error) {
	f, err := boundedread.OpenLimited(path, boundedread.Log)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, err
	}
	defer f.Close()
	return parse(f)
}

// ParseEvals reads evals.jsonl: one run.EvalRecord per line, steps
// increasing (as rl writes them), no step negative.
func ParseEvals(r io.Reader) ([]run.EvalRecord, error) {
	var out []run.EvalRecord
	err := run.ScanLines(r, func(_ int, line []byte) error {
		var e run.EvalRecord
		if err := json.Unmarshal(line, &e); err != nil {
			return err
		}
		if e.Step < 0 || len(out) > 0 && e.Step <= out[len(out)-1].Step {
			return fmt.Errorf("evaluation at step %d after step %d: want steps increasing from 0", e.Step, lastStep(out))
		}
		out = append(out, e)
		return nil
	})
	return out, err
}

func lastStep(es []run.EvalRecord) int {
	if len(es) == 0 {
		return -1
	}
	return es[len(es)-1].Step
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
