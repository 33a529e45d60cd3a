package rl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/internal/lock"
	"github.com/credo-rl/credo/internal/progress"
	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/run"
)

// CompareConfig is `credo compare`: several credit methods trained from
// one warm-up checkpoint with the same prompts and seeds.
type CompareConfig struct {
	Out     string   `json:"-"`
	Methods []string `json:"methods"`
	Seeds   int      `json:"-"` // runs use seeds 1..Seeds
	// Threshold and Window define "steps to threshold": the first step at
	// which a reward's moving mean over Window steps reaches Threshold.
	Threshold float64 `json:"threshold"`
	Window    int     `json:"window"`
	// Init reuses an existing warm-up checkpoint; empty makes one with
	// Warmup into Out/warmup (once: a finished warm-up is reused).
	Init   string       `json:"-"`
	Warmup WarmupConfig `json:"-"`
	// Train is every run's configuration; Method, Seed, Init and Out are
	// filled per run.
	Train Config `json:"-"`
	// Calibrate measures, once after warm-up, where the policy starts on
	// each reward (calibration.json): the table judges methods on the
	// rewards it counts. Its group, max tokens and temperature are the
	// training ones; Prompts 0 skips it.
	Calibrate CalibrateConfig `json:"-"`
}

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
func Compare(ctx context.Context, c CompareConfig, log io.Writer, opts ...Option) error {
	var ps Problems
	if c.Out == "" {
		ps = append(ps, Problem{"out", "a comparison folder is required"})
	}
	if len(c.Methods) == 0 {
		ps = append(ps, Problem{"methods", "at least one method is required"})
	}
	if c.Seeds < 1 {
		ps = append(ps, Problem{"seeds", fmt.Sprintf("must be at least 1, got %d", c.Seeds)})
	}
	if !(c.Threshold > 0) || math.IsInf(c.Threshold, 0) {
		ps = append(ps, Problem{"threshold", fmt.Sprintf("must be a positive number, got %v", c.Threshold)})
	}
	if c.Window < 1 {
		ps = append(ps, Problem{"window", fmt.Sprintf("must be at least 1, got %d", c.Window)})
	}
	if len(ps) > 0 {
		return &ConfigError{ps}
	}
	probe := Trainer{}
	for _, o := range opts {
		o(&probe)
	}
	m := CompareManifest{Task: c.Train.Task, Methods: c.Methods, Steps: c.Train.Steps, Threshold: c.Threshold, Window: c.Window}
	for s := 1; s <= c.Seeds; s++ {
		m.Seeds = append(m.Seeds, uint64(s))
	}
	init := c.Init
	if init == "" {
		init = filepath.Join(c.Out, "warmup")
		m.Warmup = "warmup"
	} else if abs, err := filepath.Abs(init); err == nil {
		m.Warmup = abs
	}
	settings := c.Train
	settings.Method, settings.Seed, settings.Init, settings.Out = "", 0, "", "" // each run's own
	var err error
	if m.Train, err = json.Marshal(settings); err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	if c.Init == "" {
		if m.WarmupConfig, err = json.Marshal(c.Warmup); err != nil {
			return fmt.Errorf("compare: %w", err)
		}
	}
	for _, method := range c.Methods {
		meth, err := credit.New(method, c.Train.Credit)
		if err != nil {
			return &ConfigError{err}
		}
		if credit.RequirementsOf(meth).PRM && probe.prm == nil {
			return configErr("method %s needs a process reward model: pass --prm DIR", method)
		}
		cfg := c.Train
		cfg.Method, cfg.Init, cfg.Out = method, init, filepath.Join(c.Out, "x")
		if err := cfg.Validate(); err != nil {
			return &ConfigError{err}
		}
	}
	if c.Init == "" {
		if err := c.Warmup.Validate(); err != nil {
			return &ConfigError{err.(Problems).Prefixed("warmup.")}
		}
	}
	m.Runs = manifestRuns(m.Methods, m.Seeds)
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
	if c.Init == "" {
		if err := warmupOnce(ctx, c.Warmup, init, log); err != nil {
			return err
		}
	}
	if c.Calibrate.Prompts > 0 {
		if err := calibrateOnce(ctx, c, init, log); err != nil {
			return err
		}
	}
	return compareRuns(ctx, c, m, init, log, opts)
}

// compareRuns trains every run of m that has not finished, under one
// progress bar over all runs' steps.
func compareRuns(ctx context.Context, c CompareConfig, m CompareManifest, init string, log io.Writer, opts []Option) error {
	steps := c.Train.Steps
	completed := make([]int, len(m.Runs)) // each run's latest checkpoint step
	done := 0
	for i, r := range m.Runs {
		st, err := checkpointSteps(filepath.Join(c.Out, r.Dir, "checkpoints"))
		if err != nil {
			return fmt.Errorf("%s seed %d: %w", r.Method, r.Seed, err)
		}
		if len(st) > 0 {
			completed[i] = min(st[len(st)-1], steps)
		}
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
		cfg.Method, cfg.Seed, cfg.Init, cfg.Out = r.Method, r.Seed, init, filepath.Join(c.Out, r.Dir)
		_, serr := os.Stat(filepath.Join(cfg.Out, run.ConfigFile))
		base := i * steps
		label := fmt.Sprintf("run %d/%d %s seed %d", i+1, len(m.Runs), r.Method, r.Seed)
		report := WithProgress(func(step int, summary string) { bar.Update(base+step, label+" | "+summary) })
		tr, err := New(ctx, cfg, serr == nil, log, append(opts, report)...)
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

// calibrateOnce measures where the warm-up starts (calibration.json in the
// comparison folder) unless a calibration made with the same settings is
// there.
func calibrateOnce(ctx context.Context, c CompareConfig, init string, log io.Writer) error {
	path := filepath.Join(c.Out, run.CalibrationFile)
	cc := c.Calibrate
	cc.Group, cc.MaxTokens, cc.Temperature = c.Train.Group, c.Train.MaxTokens, c.Train.Temperature
	cc.EvalPrompts = c.Train.EvalPrompts
	cc.Workers, cc.Timeout = c.Train.VerifyWorkers, time.Duration(c.Train.VerifyTimeout)
	var saved run.Calibration
	switch err := run.ReadJSON(path, &saved); {
	case err == nil:
		if saved.Prompts != cc.Prompts || saved.Group != cc.Group || saved.EvalPrompts != cc.EvalPrompts {
			return fmt.Errorf("compare: %s was made with %d prompts × %d responses (eval %d), these settings ask %d × %d (eval %d): choose another --out",
				path, saved.Prompts, saved.Group, saved.EvalPrompts, cc.Prompts, cc.Group, cc.EvalPrompts)
		}
		return nil
	case !errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("compare: %w", err)
	}
	p, err := policy.Load(init)
	if err != nil {
		return fmt.Errorf("compare: calibrate: %w", err)
	}
	t, err := NewTask(c.Train.Task, c.Train.TaskSeed, c.Train.Difficulty)
	if err != nil {
		return fmt.Errorf("compare: calibrate: %w", err)
	}
	if cl, ok := t.(io.Closer); ok {
		defer cl.Close()
	}
	vs, err := TaskRewards(t, c.Train.Judges)
	if err != nil {
		return fmt.Errorf("compare: calibrate: %w", err)
	}
	cal, err := Calibrate(ctx, p, t, vs, cc, log)
	if err != nil {
		return err
	}
	cal.Difficulty = c.Train.Difficulty
	for _, r := range cal.Rewards {
		status := "counted"
		if !r.Counted {
			status = "not counted: " + r.Why
		}
		fmt.Fprintf(log, "calibration: %s starts at %.2f, %.0f%% of groups without variance: %s\n", r.Reward, r.Pass, 100*r.ZeroVar, status)
	}
	return run.WriteJSON(path, cal)
}

// openComparison makes the folder and its compare.json, or checks that the
// folder's compare.json has m's settings. A comparison may gain methods and
// seeds (its runs are independent): compare.json then lists the old ones
// and the new, in that order, and m becomes that manifest.
func openComparison(dir string, m *run.Manifest) error {
	path := filepath.Join(dir, run.ManifestFile)
	var saved run.Manifest
	err := run.ReadJSON(path, &saved)
	switch {
	case err == nil:
		grown, ok, changed := extended(saved, *m)
		if !ok { // a method or seed was dropped: name the difference
			return sameSettings(dir, saved, *m)
		}
		base := saved
		base.Methods, base.Seeds = grown.Methods, grown.Seeds
		if err := sameSettings(dir, base, grown); err != nil {
			return err
		}
		*m = grown
		if changed {
			return run.WriteJSON(path, grown)
		}
		return nil
	case !errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("compare: %w", err)
	}
	if entries, err := os.ReadDir(dir); err == nil && slices.ContainsFunc(entries, notLock) {
		return fmt.Errorf("compare: %s holds files but no %s, so it is not a comparison folder: choose another --out", dir, run.ManifestFile)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	return run.WriteJSON(path, *m)
}

// extended is now with saved's methods and seeds first and now's new ones
// after (runs listed seed by seed); ok is false when now lacks one of
// saved's methods or seeds, and changed says whether any were added.
func extended(saved, now run.Manifest) (m run.Manifest, ok, changed bool) {
	for _, x := range saved.Methods {
		if !slices.Contains(now.Methods, x) {
			return now, false, false
		}
	}
	for _, x := range saved.Seeds {
		if !slices.Contains(now.Seeds, x) {
			return now, false, false
		}
	}
	m = now
	m.Methods = append([]string(nil), saved.Methods...)
	for _, x := range now.Methods {
		if !slices.Contains(m.Methods, x) {
			m.Methods = append(m.Methods, x)
		}
	}
	m.Seeds = append([]uint64(nil), saved.Seeds...)
	for _, x := range now.Seeds {
		if !slices.Contains(m.Seeds, x) {
			m.Seeds = append(m.Seeds, x)
		}
	}
	m.Runs = manifestRuns(m.Methods, m.Seeds)
	return m, true, len(m.Methods) != len(saved.Methods) || len(m.Seeds) != len(saved.Seeds)
}

// manifestRuns lists a comparison's runs, seed by seed, each seed's runs in
// method order: an interrupted comparison has complete seeds to pair.
func manifestRuns(methods []string, seeds []uint64) []run.ManifestRun {
	var runs []run.ManifestRun
	for _, s := range seeds {
		for _, method := range methods {
			runs = append(runs, run.ManifestRun{Method: method, Seed: s, Dir: filepath.Join("runs", method, fmt.Sprintf("seed-%d", s))})
		}
	}
	return runs
}

// sameSettings is nil when a comparison saved in dir has now's settings,
// else an error listing each that differs (the runs are derived from the
// methods and seeds, so they are not listed again).
func sameSettings(dir string, saved, now run.Manifest) error {
	if len(saved.Train) == 0 {
		return fmt.Errorf("compare: %s/%s does not record the settings its runs were made with (an older credo wrote it), so they cannot be checked: choose another --out", dir, run.ManifestFile)
	}
	saved.Runs, now.Runs = nil, nil
	changes, err := run.Diff(saved, now)
	if err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	top := map[string]bool{}
	for _, ch := range changes {
		top[ch.Key] = true
	}
	var lines []string
	for _, ch := range changes {
		if k, ok := strings.CutPrefix(ch.Key, "train."); ok && top[k] {
			continue // steps and task are in the header too
		}
		if strings.HasPrefix(ch.Key, "warmup_config") && top["warmup"] {
			continue // another warm-up altogether
		}
		lines = append(lines, "  "+ch.String())
	}
	if len(lines) == 0 {
		return nil
	}
	return fmt.Errorf("compare: %s holds a comparison made with other settings:\n%s\nresume it with the settings in its %s (a comparison may gain methods and seeds, not lose them), or choose another --out", dir, strings.Join(lines, "\n"), run.ManifestFile)
}

// warmupOnce makes the comparison's warm-up checkpoint unless a finished
// one (with its warmup.json) is already there, made with c.
func warmupOnce(ctx context.Context, c WarmupConfig, dir string, log io.Writer) error {
	path := filepath.Join(dir, run.WarmupFile)
	var saved WarmupRecord
	switch err := run.ReadJSON(path, &saved); {
	case err == nil:
		changes, err := run.Diff(saved.Config, c)
		if err != nil {
			return fmt.Errorf("compare: %w", err)
		}
		if len(changes) > 0 {
			return fmt.Errorf("compare: the warm-up in %s was made with other settings (%v): choose another --out", dir, changes)
		}
		fmt.Fprintf(log, "reusing the warm-up checkpoint %s\n", dir)
		return nil
	case !errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("compare: %w", err)
	}
	_, rep, err := WarmUp(ctx, c, dir, log)
	if err != nil {
		return err
	}
	return run.WriteJSON(path, WarmupRecord{Config: c, Report: rep})
}
