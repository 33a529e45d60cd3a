package lab

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"

	"github.com/credo-rl/credo/rl"

	"github.com/credo-rl/credo/internal/atomicfile"
	"github.com/credo-rl/credo/internal/lock"
	"github.com/credo-rl/credo/internal/settings"

	"github.com/credo-rl/credo/ckpt"
	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/internal/progress"
	"github.com/credo-rl/credo/run"
)

// CompareConfig is `credo compare`: several credit methods trained from
// one warm-up checkpoint with the same prompts and seeds.
type CompareConfig struct {
	Out     string   `json:"-"`
	Methods []string `json:"methods"`
	Seeds   int      `json:"-"` // runs use seeds 1..Seeds
	// Baselines are the methods every other one is measured against, in
	// the table's column order (compare.json keeps them; the report reads
	// them there): grpo and gdpo, the response-level methods.
	Baselines []string `json:"baselines"`
	// Threshold and Window define "steps to threshold": the first step at
	// which a reward's moving mean over Window steps reaches Threshold.
	Threshold float64 `json:"threshold"`
	Window    int     `json:"window"`
	// Init reuses an existing warm-up checkpoint; empty makes one with
	// Warmup into Out/warmup (once: a finished warm-up is reused).
	Init   string       `json:"-"`
	Warmup WarmupConfig `json:"-"`
	// Warmups > 1 makes that many warm-ups, into Out/warmup-<w>, warm-up w
	// with seed Warmup.Seed + w − 1, and trains every method with every
	// seed from each: the warm-up is a source of variance, and each run
	// pairs with the runs of its warm-up and seed. 0 or 1: one warm-up.
	Warmups int `json:"warmups,omitempty"`
	// Headline is which rewards each run's headline figure averages:
	// run.HeadlineShared (or ""), those every warm-up's calibration
	// counts, or run.HeadlineOwn, those its own warm-up's counts. It is
	// stated before the runs: compare.json keeps it, and a comparison
	// resumed with the other rule is refused.
	Headline string `json:"headline,omitempty"`
	// Gate, when set, measures each named method's localization in every
	// warm-up's calibration and uses only the warm-ups where it reaches
	// the value on every counted reward (run.Gate): no run trains from
	// the others. compare.json keeps it, like Headline.
	Gate run.Gate `json:"min_localization,omitempty"`
	// Train is every run's configuration; Method, Seed, Init and Out are
	// filled per run.
	Train rl.Config `json:"-"`
	// Calibrate measures, once after warm-up, where the policy starts on
	// each reward (calibration.json): the table judges methods on the
	// rewards it counts. Its group, max tokens and temperature are the
	// training ones; Prompts 0 skips it.
	Calibrate CalibrateConfig `json:"-"`
	// PRM is the process reward model of methods that need one (p2t).
	PRM credit.Influencer `json:"-"`
	// AcceptMissingChecksums lets a resumed run continue from a checkpoint
	// whose checksums.json is gone, unverified (rl.WithMissingChecksums:
	// recorded in that run's resumes.json).
	AcceptMissingChecksums bool `json:"-"`
}

// DefaultBaselines are the baselines of a comparison by default.
func DefaultBaselines() []string { return []string{"grpo", "gdpo"} }

// CompareManifest is compare.json (run.Manifest): what the report reads.
type CompareManifest = run.Manifest

// CompareRun names one run of a comparison (run.ManifestRun).
type CompareRun = run.ManifestRun

// WarmupRecord is warmup.json, written beside a warm-up checkpoint.
type WarmupRecord = run.WarmupRecord[WarmupConfig, WarmupReport]

// Compare warms a policy up once (or reuses Init) and trains every method
// with every seed from it. Runs are ordinary run directories under
// Out/runs/<method>/seed-<n>: an interrupted comparison resumes each run
// from its checkpoint, and a finished run is not run again. Every
// configuration is checked before any work starts, and compare.json keeps
// the settings: a compare into the folder with other ones is an error
// naming what differs (runs made with the old settings are never
// relabelled), and a folder holding anything else is refused.
func Compare(ctx context.Context, c CompareConfig, log io.Writer) error {
	if err := c.validate(); err != nil {
		return err
	}
	m, err := c.manifest()
	if err != nil {
		return err
	}
	lk, err := lockComparison(c.Out)
	if err != nil {
		return err
	}
	defer lk.Release()
	if err := lock.RemoveAbandoned(c.Out, log); err != nil { // a warm-up killed while saving
		return err
	}
	if err := openComparison(c.Out, &m); err != nil {
		return err
	}
	sites := c.sites()
	own := m.Headline == run.HeadlineOwn && len(sites) > 1
	var cals []run.Calibration
	gated := map[int]bool{} // warm-ups the gate leaves out, by index
	for _, st := range sites {
		if c.Init == "" {
			if err := warmupOnce(ctx, st.config, st.dir, log); err != nil {
				return err
			}
		}
		if c.Calibrate.Prompts > 0 {
			cal, err := calibrateOnce(ctx, c, st, log)
			if err != nil {
				return err
			}
			if why := m.Gate.Why(cal); why != "" {
				if st.index == 0 {
					return fmt.Errorf("compare: the warm-up does not pass the gate (--min-localization): %s", why)
				}
				fmt.Fprintf(log, "warm-up %d is left out by the gate (--min-localization): %s; no run trains from it\n", st.index, why)
				gated[st.index] = true
				continue
			}
			if err := judgeable(cal, st, own, log); err != nil {
				return err
			}
			cals = append(cals, cal)
		}
	}
	if len(gated) > 0 && len(gated) == len(sites) {
		return fmt.Errorf("compare: no warm-up passes the gate (--min-localization %s): make more warm-ups (--warmups), warm up otherwise, or lower the gate", m.Gate)
	}
	switch {
	case len(cals) < 2:
	case own && !slices.ContainsFunc(cals, func(cal run.Calibration) bool { return len(cal.Counted()) > 0 }):
		return fmt.Errorf("compare: no warm-up's calibration counts a reward, so no comparison could tell the methods apart; " +
			"make the task harder or easier for this policy (--difficulty) or warm up longer or shorter")
	case !own:
		if w := countedWarning(cals); w != "" {
			fmt.Fprintln(log, w)
		}
	}
	return compareRuns(ctx, c, m, sites, gated, log)
}

// validate checks the comparison's own settings, every run's configuration
// and the warm-up's, before any work starts.
func (c CompareConfig) validate() error {
	var ps settings.Problems
	if c.Out == "" {
		ps.Add("out", "a comparison folder is required")
	}
	if len(c.Methods) == 0 {
		ps.Add("methods", "at least one method is required")
	}
	if c.Seeds < 1 {
		ps.Add("seeds", "must be at least 1, got %d", c.Seeds)
	}
	if !(c.Threshold > 0) || math.IsInf(c.Threshold, 0) {
		ps.Add("threshold", "must be a positive number, got %v", c.Threshold)
	}
	if c.Window < 1 {
		ps.Add("window", "must be at least 1, got %d", c.Window)
	}
	if c.Warmups < 0 || c.Warmups > 1 && c.Init != "" {
		ps.Add("warmups", "must be 0 or 1 (one warm-up) with init, or the number of warm-ups the comparison makes, got %d", c.Warmups)
	}
	if c.Headline != "" && c.Headline != run.HeadlineShared && c.Headline != run.HeadlineOwn {
		ps.Add("headline", "must be %s or %s, got %q", run.HeadlineShared, run.HeadlineOwn, c.Headline)
	}
	if len(c.Gate) > 0 && c.Calibrate.Prompts < 1 {
		ps.Add("min_localization", "the gate reads each warm-up's calibration: calibration prompts must be at least 1")
	}
	for _, method := range c.Gate.Methods() {
		if v := c.Gate[method]; !(v > 0) || math.IsInf(v, 0) {
			ps.Add("min_localization", "%s's least localization must be a positive number, got %v", method, v)
		}
	}
	if len(ps) > 0 {
		return &settings.Error{Err: ps}
	}
	for _, method := range c.Gate.Methods() {
		if _, err := localizable(method, c.Train.Credit.Config); err != nil {
			return settings.Errorf("--min-localization: %v", err)
		}
	}
	for _, method := range c.Methods {
		meth, err := credit.New(method, c.Train.Credit.Config)
		if err != nil {
			return &settings.Error{Err: err}
		}
		if credit.RequirementsOf(meth).PRM && c.PRM == nil {
			return settings.Errorf("method %s needs a process reward model: pass --prm DIR", method)
		}
		cfg := c.Train
		cfg.Method, cfg.Init, cfg.Out = method, c.warmupDir(), filepath.Join(c.Out, "x")
		if err := cfg.Validate(); err != nil {
			return &settings.Error{Err: err}
		}
	}
	if c.Init == "" {
		if err := c.Warmup.Validate(); err != nil {
			return &settings.Error{Err: err.(settings.Problems).Prefixed("warmup.")}
		}
	}
	return nil
}

// warmupDir is the warm-up checkpoint every run starts from.
func (c CompareConfig) warmupDir() string {
	if c.Init != "" {
		return c.Init
	}
	return filepath.Join(c.Out, "warmup")
}

// manifest is compare.json for c.
func (c CompareConfig) manifest() (CompareManifest, error) {
	m := CompareManifest{Task: c.Train.Task, Methods: c.Methods, Steps: c.Train.Steps, Threshold: c.Threshold, Window: c.Window,
		Baselines: c.Baselines}
	if len(m.Baselines) == 0 {
		m.Baselines = DefaultBaselines()
	}
	if c.Headline == run.HeadlineOwn {
		m.Headline = run.HeadlineOwn // shared is "", as in every compare.json before the field
	}
	if len(c.Gate) > 0 {
		m.Gate = c.Gate
	}
	for s := 1; s <= c.Seeds; s++ {
		m.Seeds = append(m.Seeds, uint64(s))
	}
	sites := c.sites()
	switch {
	case len(sites) > 1:
		for _, st := range sites {
			m.Warmups = append(m.Warmups, run.ManifestWarmup{Index: st.index, Dir: filepath.Base(st.dir), Seed: st.config.Seed})
		}
	case c.Init == "":
		m.Warmup = "warmup"
	default:
		if abs, err := filepath.Abs(c.Init); err == nil {
			m.Warmup = abs
		}
	}
	shared := c.Train
	shared.Method, shared.Seed, shared.Init, shared.Out = "", 0, "", "" // each run's own
	if shared.Records != "" {
		shared.Records = ckpt.AbsPath(shared.Records) // resumable from any working directory
	}
	var err error
	if m.Train, err = json.Marshal(shared); err != nil {
		return m, fmt.Errorf("compare: %w", err)
	}
	if c.Init == "" {
		if m.WarmupConfig, err = json.Marshal(c.Warmup); err != nil {
			return m, fmt.Errorf("compare: %w", err)
		}
	}
	m.Runs = manifestRuns(m.Methods, m.Seeds, len(m.Warmups))
	return m, nil
}

// compareRuns trains every run of m that has not finished, except those
// from a gated warm-up, under one progress bar over all runs' steps.
func compareRuns(ctx context.Context, c CompareConfig, m CompareManifest, sites []site, gated map[int]bool, log io.Writer) error {
	steps := c.Train.Steps
	m.Runs = slices.DeleteFunc(slices.Clone(m.Runs), func(r CompareRun) bool { return gated[r.Warmup] })
	completed := make([]int, len(m.Runs)) // each run's latest checkpoint step
	done := 0
	for i, r := range m.Runs {
		st, err := ckpt.LatestStep(filepath.Join(c.Out, r.Dir))
		if err != nil {
			return fmt.Errorf("%s seed %d: %w", r.Method, r.Seed, err)
		}
		completed[i] = min(st, steps)
		done += completed[i]
	}
	finished := 0
	for i, r := range m.Runs {
		if completed[i] >= steps {
			fmt.Fprintf(log, "run %d/%d %s seed %d: finished earlier\n", i+1, len(m.Runs), r.Method, r.Seed)
			finished++
		}
	}
	if finished == len(m.Runs) {
		return nil
	}
	bar := progress.New(log, "compare", done, len(m.Runs)*steps)
	defer bar.Done()
	for i, r := range m.Runs {
		if completed[i] >= steps {
			continue
		}
		cfg := c.Train
		cfg.Method, cfg.Seed, cfg.Init, cfg.Out = r.Method, r.Seed, sites[max(r.Warmup-1, 0)].dir, filepath.Join(c.Out, r.Dir)
		_, serr := os.Stat(filepath.Join(cfg.Out, run.ConfigFile))
		base := i * steps
		label := fmt.Sprintf("run %d/%d %s seed %d", i+1, len(m.Runs), r.Method, r.Seed)
		if r.Warmup > 0 {
			label = fmt.Sprintf("run %d/%d %s warm-up %d seed %d", i+1, len(m.Runs), r.Method, r.Warmup, r.Seed)
		}
		report := rl.WithProgress(func(step int, summary string) { bar.Update(base+step, label+" | "+summary) })
		opts := []rl.Option{report}
		if c.PRM != nil {
			opts = append(opts, rl.WithPRM(c.PRM))
		}
		if c.AcceptMissingChecksums {
			opts = append(opts, rl.WithMissingChecksums())
		}
		tr, err := rl.New(ctx, cfg, serr == nil, log, opts...)
		if err != nil {
			return fmt.Errorf("%s seed %d: %w", r.Method, r.Seed, err)
		}
		bar.Update(base+tr.Step(), label)
		err = tr.Run(ctx)
		tr.Close()
		if err != nil {
			return fmt.Errorf("%s seed %d: %w", r.Method, r.Seed, err)
		}
	}
	return nil
}

// lockComparison takes a comparison folder's lock, making the folder when
// it does not exist yet; its runs have locks of their own.
func lockComparison(dir string) (*lock.Lock, error) {
	if err := os.MkdirAll(dir, atomicfile.DirMode); err != nil {
		return nil, fmt.Errorf("compare: %w", err)
	}
	return lock.Acquire(dir)
}
