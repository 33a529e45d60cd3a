package rl

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/credo-rl/credo/credit"
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
}

// CompareRun names one run of a comparison.
type CompareRun struct {
	Method string `json:"method"`
	Seed   uint64 `json:"seed"`
	Dir    string `json:"dir"` // relative to the comparison folder
}

// CompareManifest is compare.json: what the report reads.
type CompareManifest struct {
	Task      string       `json:"task"`
	Methods   []string     `json:"methods"`
	Seeds     []uint64     `json:"seeds"`
	Steps     int          `json:"steps"`
	Threshold float64      `json:"threshold"`
	Window    int          `json:"window"`
	Warmup    string       `json:"warmup"`
	Runs      []CompareRun `json:"runs"`
}

// Compare warms a policy up once (or reuses Init) and trains every method
// with every seed from it. Runs are ordinary run directories under
// Out/runs/<method>/seed-<n>: an interrupted comparison resumes each run
// from its checkpoint, and a finished run is not run again. Every
// configuration is checked before any work starts.
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
	for _, s := range m.Seeds {
		for _, method := range c.Methods {
			m.Runs = append(m.Runs, CompareRun{Method: method, Seed: s, Dir: filepath.Join("runs", method, fmt.Sprintf("seed-%d", s))})
		}
	}
	if err := os.MkdirAll(c.Out, 0o755); err != nil {
		return err
	}
	if err := run.WriteJSON(filepath.Join(c.Out, "compare.json"), m); err != nil {
		return err
	}
	if c.Init == "" {
		if err := warmupOnce(ctx, c.Warmup, init, log); err != nil {
			return err
		}
	}
	for i, r := range m.Runs {
		cfg := c.Train
		cfg.Method, cfg.Seed, cfg.Init, cfg.Out = r.Method, r.Seed, init, filepath.Join(c.Out, r.Dir)
		_, serr := os.Stat(filepath.Join(cfg.Out, "config.json"))
		tr, err := New(ctx, cfg, serr == nil, log, opts...)
		if err != nil {
			return fmt.Errorf("%s seed %d: %w", r.Method, r.Seed, err)
		}
		if tr.Done() {
			fmt.Fprintf(log, "[%d/%d] %s seed %d: finished earlier\n", i+1, len(m.Runs), r.Method, r.Seed)
			continue
		}
		fmt.Fprintf(log, "[%d/%d] %s seed %d\n", i+1, len(m.Runs), r.Method, r.Seed)
		if err := tr.Run(ctx); err != nil {
			return fmt.Errorf("%s seed %d: %w", r.Method, r.Seed, err)
		}
	}
	return nil
}

// warmupOnce makes the comparison's warm-up checkpoint unless a finished
// one (with its warmup.json) is already there.
func warmupOnce(ctx context.Context, c WarmupConfig, dir string, log io.Writer) error {
	if _, err := os.Stat(filepath.Join(dir, "warmup.json")); err == nil {
		fmt.Fprintf(log, "reusing the warm-up checkpoint %s\n", dir)
		return nil
	}
	_, rep, err := WarmUp(ctx, c, dir, log)
	if err != nil {
		return err
	}
	return run.WriteJSON(filepath.Join(dir, "warmup.json"), map[string]any{"config": c, "report": rep})
}
