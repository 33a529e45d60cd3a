package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/credo-rl/credo/run"
)

// Comparison is a set of runs of several methods over several seeds on
// one task: a compare directory, or a single run seen as one.
type Comparison struct {
	Dir  string
	Task string
	// Difficulty is the task's difficulty settings ("": its defaults), as
	// the runs' configuration gives it.
	Difficulty string
	Methods    []string // in the order rows and legends use
	Seeds      []uint64
	Steps      int     // configured steps per run
	Threshold  float64 // the reward the moving mean must reach
	Window     int     // the moving mean's window, in steps
	Warmup     string  // the warmed-up policy every run starts from
	// Warmups are the warm-ups of a comparison that made several (each
	// with its own calibration, in Calibrations); nil with one.
	Warmups []run.ManifestWarmup
	Runs    []*Run
	// Calibration is where the warm-up starts (calibration.json), nil when
	// the comparison has none: then every reward is counted and the
	// threshold is Threshold. With several warm-ups it is their summary
	// (mergeCalibrations) and Calibrations holds each, by warm-up index.
	Calibration  *run.Calibration
	Calibrations map[int]*run.Calibration
	// Baselines are the methods every other one is measured against, in
	// column order (run.Manifest.BaselineMethods when nil); the last is
	// the reference of the final evaluation's difference.
	Baselines []string
	// ScaleTo is the runs' credit.scale_to ("grpo": every method at GRPO's
	// step size; "": raw advantages).
	ScaleTo string
	// Blocks are the warm-ups' block diagnostics (warmup.json), by warm-up
	// index (0: the comparison's one warm-up); nil when none has one.
	Blocks map[int]BlockFigures
	// Headline is compare.json's rule for the headline figure
	// (run.Manifest.Headline: "" for run.HeadlineShared).
	Headline string
	// Gate is compare.json's warm-up gate (run.Manifest.Gate), and Gated
	// the warm-ups it left out: Warmups, Calibrations and Runs hold only
	// the others.
	Gate  run.Gate
	Gated []GatedWarmup
}

// loadCalibrations reads calibration.json, or each warm-up's; a missing
// one leaves the comparison (or that warm-up) uncalibrated.
func (c *Comparison) loadCalibrations() error {
	read := func(path string) (*run.Calibration, error) { return readOptional[run.Calibration](c.Dir, path) }
	if len(c.Warmups) == 0 {
		cal, err := read(filepath.Join(c.Dir, run.CalibrationFile))
		c.Calibration = cal
		return err
	}
	var all []*run.Calibration
	for _, w := range c.Warmups {
		cal, err := read(filepath.Join(c.Dir, w.Dir, run.CalibrationFile))
		if err != nil {
			return err
		}
		if cal != nil {
			if c.Calibrations == nil {
				c.Calibrations = map[int]*run.Calibration{}
			}
			c.Calibrations[w.Index] = cal
			all = append(all, cal)
		}
	}
	if len(all) == len(c.Warmups) {
		c.Calibration = mergeCalibrations(all)
	}
	return nil
}

// readOptional reads the JSON file at path into a new T: nil when there is
// no such file, an error naming the comparison in dir when it cannot be read.
func readOptional[T any](dir, path string) (*T, error) {
	var v T
	switch err := run.ReadJSON(path, &v); {
	case err == nil:
		return &v, nil
	case errors.Is(err, os.ErrNotExist):
		return nil, nil
	default:
		return nil, fmt.Errorf("compare %s: %w", dir, err)
	}
}

// mergeCalibrations summarises the calibrations of several warm-ups: each
// reward's pass rate, zero-variance share and starting evaluation are
// their means, its failed quoting verdicts (Blamed) their sum with the
// shares weighted by them, and it is counted when every warm-up counts it
// (the first reason against it otherwise).
func mergeCalibrations(cals []*run.Calibration) *run.Calibration {
	out := *cals[0]
	out.Rewards = slices.Clone(out.Rewards)
	out.Eval = map[string]float64{}
	for i := range out.Rewards {
		r := &out.Rewards[i]
		r.Pass, r.ZeroVar, r.Groups = 0, 0, 0
		r.Blamed, r.BlamedTokens, r.BlamedUniform = 0, 0, 0
		for _, cal := range cals {
			for _, x := range cal.Rewards {
				if x.Reward != r.Reward {
					continue
				}
				r.Pass += x.Pass / float64(len(cals))
				r.ZeroVar += x.ZeroVar / float64(len(cals))
				r.Groups += x.Groups
				r.Blamed += x.Blamed // summed; the shares weighted by it, below
				r.BlamedTokens += x.BlamedTokens * float64(x.Blamed)
				r.BlamedUniform += x.BlamedUniform * float64(x.Blamed)
				if !x.Counted && r.Counted {
					r.Counted, r.Why = false, x.Why
				}
			}
		}
	}
	for i := range out.Rewards {
		if r := &out.Rewards[i]; r.Blamed > 0 {
			r.BlamedTokens /= float64(r.Blamed)
			r.BlamedUniform /= float64(r.Blamed)
		}
	}
	for k := range cals[0].Eval {
		for _, cal := range cals {
			out.Eval[k] += cal.Eval[k] / float64(len(cals))
		}
	}
	return &out
}

// start is reward k's starting point in the calibration.
func (c *Comparison) start(k string) (run.RewardStart, bool) {
	for _, r := range c.Calibration.Rewards {
		if r.Reward == k {
			return r, true
		}
	}
	return run.RewardStart{}, false
}

// LoadCompare reads a compare directory: compare.json and every run it
// lists (run directories relative to dir). compare.json's method and seed
// name each run; a zero threshold or window takes the default.
func LoadCompare(dir string) (*Comparison, error) {
	var f run.Manifest
	if err := run.ReadJSON(filepath.Join(dir, run.ManifestFile), &f); err != nil {
		return nil, fmt.Errorf("compare %s: %w", dir, err)
	}
	if f.Threshold < 0 || f.Window < 0 {
		return nil, fmt.Errorf("compare %s: compare.json: threshold %v and window %d must not be negative", dir, f.Threshold, f.Window)
	}
	if len(f.Runs) == 0 {
		return nil, fmt.Errorf("compare %s: compare.json lists no runs", dir)
	}
	c := &Comparison{Dir: dir, Task: f.Task, Methods: f.Methods, Seeds: f.Seeds, Steps: f.Steps,
		Threshold: f.Threshold, Window: f.Window, Warmup: f.Warmup, Warmups: f.Warmups, Baselines: f.BaselineMethods(),
		Headline: f.Headline}
	c.defaults()
	if err := c.loadCalibrations(); err != nil {
		return nil, err
	}
	c.applyGate(f.Gate)
	if err := c.loadBlocks(); err != nil {
		return nil, err
	}
	if len(f.Train) > 0 {
		var t struct {
			Difficulty string `json:"difficulty"`
			Credit     struct {
				ScaleTo string `json:"scale_to"`
			} `json:"credit"`
		}
		if err := json.Unmarshal(f.Train, &t); err == nil {
			c.ScaleTo, c.Difficulty = t.Credit.ScaleTo, t.Difficulty
		}
	}
	var errs []error
	for i, e := range f.Runs {
		if e.Dir == "" {
			errs = append(errs, fmt.Errorf("compare %s: run %d (%s, seed %d) has no dir", dir, i, e.Method, e.Seed))
			continue
		}
		if e.Warmup > 0 && c.gated(e.Warmup) {
			continue // never trained
		}
		rd := e.Dir
		if !filepath.IsAbs(rd) {
			rd = filepath.Join(dir, rd)
		}
		r, err := LoadRun(rd)
		if err != nil {
			errs = append(errs, fmt.Errorf("compare %s: %s seed %d: %w", dir, e.Method, e.Seed, err))
			continue
		}
		if e.Method != "" {
			r.Method = e.Method
		}
		r.Seed, r.Warmup = e.Seed, e.Warmup
		if r.Steps == 0 && c.Steps > 0 {
			r.Steps = c.Steps
			r.Incomplete = len(r.Metrics) < r.Steps
		}
		c.Runs = append(c.Runs, r)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	c.fill()
	return c, nil
}

// Single is the comparison of one run with itself: one method, one seed,
// the default threshold and window.
func Single(r *Run) *Comparison {
	c := &Comparison{Dir: r.Dir, Task: r.Task, Steps: r.Steps, Runs: []*Run{r}}
	c.defaults()
	c.fill()
	return c
}

// Load reads dir as a compare directory if it holds compare.json, else as
// a run directory.
func Load(dir string) (*Comparison, error) {
	if _, err := os.Stat(filepath.Join(dir, run.ManifestFile)); err == nil {
		return LoadCompare(dir)
	}
	_, cerr := os.Stat(filepath.Join(dir, run.ConfigFile))
	_, merr := os.Stat(filepath.Join(dir, run.MetricsFile))
	if cerr != nil && merr != nil {
		return nil, fmt.Errorf("%s is neither a compare directory (compare.json) nor a run directory (config.json, metrics.jsonl)", dir)
	}
	r, err := LoadRun(dir)
	if err != nil {
		return nil, err
	}
	return Single(r), nil
}

// baselines is c.Baselines, or the manifest's default when nil.
func (c *Comparison) baselines() []string {
	if len(c.Baselines) > 0 {
		return c.Baselines
	}
	return run.Manifest{}.BaselineMethods()
}

func (c *Comparison) defaults() {
	if c.Threshold == 0 {
		c.Threshold = DefaultThreshold
	}
	if c.Window == 0 {
		c.Window = DefaultWindow
	}
}

// fill adds the methods and seeds of runs that the header does not list.
func (c *Comparison) fill() {
	for _, r := range c.Runs {
		if !slices.Contains(c.Methods, r.Method) {
			c.Methods = append(c.Methods, r.Method)
		}
		if !slices.Contains(c.Seeds, r.Seed) {
			c.Seeds = append(c.Seeds, r.Seed)
		}
		if c.Task == "" {
			c.Task = r.Task
		}
		if c.Difficulty == "" {
			c.Difficulty = r.Difficulty
		}
	}
}

// MethodRuns are the runs of method m, in the order they were listed.
func (c *Comparison) MethodRuns(m string) []*Run {
	var out []*Run
	for _, r := range c.Runs {
		if r.Method == m {
			out = append(out, r)
		}
	}
	return out
}

// Rewards are the rewards of every run, in first-seen order.
func (c *Comparison) Rewards() []string {
	var out []string
	for _, r := range c.Runs {
		for _, n := range r.Rewards() {
			if !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}
