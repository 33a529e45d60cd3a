package lab

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/credo-rl/credo/policy/policytest"
	"github.com/credo-rl/credo/rl"

	"github.com/credo-rl/credo/report"
	"github.com/credo-rl/credo/run"
)

// tinyCompare is a comparison of seconds: a tiny warm-up made here, one
// step per run.
func tinyCompare(t *testing.T) CompareConfig {
	w := DefaultWarmup()
	w.Size, w.Demos, w.Steps, w.Batch, w.Eval.Prompts = "tiny", 16, 2, 2, 0
	tr := rl.DefaultConfig()
	tr.Task, tr.Init, tr.Out = "toolcall", policytest.Dir(t), filepath.Join(t.TempDir(), "run")
	tr.Steps, tr.PromptsPerStep, tr.Group, tr.MaxTokens, tr.Peak = 1, 2, 3, 24, 1e-3
	tr.EvalEvery, tr.EvalPrompts, tr.CheckpointEvery = 0, 0, 0
	return CompareConfig{
		Out: filepath.Join(t.TempDir(), "cmp"), Methods: []string{"grpo", "gdpo"}, Seeds: 1,
		Threshold: 0.8, Window: 2, Warmup: w, Train: tr,
	}
}

// TestCompareRefusesOtherSettings: a compare into a comparison folder
// with the same settings resumes it (finished runs are kept); with other
// settings it is an error naming what differs, and nothing in the folder
// changes (before, compare.json was rewritten and the old runs relabelled).
func TestCompareRefusesOtherSettings(t *testing.T) {
	ctx := context.Background()
	c := tinyCompare(t)
	if err := Compare(ctx, c, io.Discard); err != nil {
		t.Fatal(err)
	}
	manifest := filepath.Join(c.Out, run.ManifestFile)
	saved, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	cmp, err := report.LoadCompare(c.Out)
	if err != nil || len(cmp.Runs) != 2 || cmp.Runs[1].Method != "gdpo" || cmp.Warmup != "warmup" || cmp.Window != 2 {
		t.Fatalf("the comparison reads back as %+v (%v)", cmp, err)
	}
	var log bytes.Buffer
	if err := Compare(ctx, c, &log); err != nil {
		t.Fatalf("the same settings do not resume: %v", err)
	}
	if !strings.Contains(log.String(), "finished earlier") || !strings.Contains(log.String(), "reusing the warm-up") {
		t.Errorf("the resume did not reuse the finished work:\n%s", log.String())
	}
	for _, tc := range []struct {
		name   string
		change func(*CompareConfig)
		wants  []string
	}{
		{"learning rate", func(c *CompareConfig) { c.Train.Peak = 5e-3 }, []string{"train.lr: 0.001 before, 0.005 now"}},
		{"fewer methods", func(c *CompareConfig) { c.Methods = []string{"gdpo"} }, []string{`methods: ["grpo","gdpo"] before, ["gdpo"] now`}},
		{"task", func(c *CompareConfig) { c.Train.Task, c.Warmup.Task = "sql", "sql" }, []string{`task: "toolcall" before, "sql" now`, "warmup_config.task"}},
		{"steps", func(c *CompareConfig) { c.Train.Steps = 3 }, []string{"steps: 1 before, 3 now"}},
		{"window", func(c *CompareConfig) { c.Window = 4 }, []string{"window: 2 before, 4 now"}},
		{"warm-up", func(c *CompareConfig) { c.Warmup.Steps = 5 }, []string{"warmup_config.steps: 2 before, 5 now"}},
		{"another warm-up", func(c *CompareConfig) { c.Init = policytest.Dir(t) }, []string{"warmup: "}},
		// The headline's rule is stated before the runs, not chosen after.
		{"headline rule", func(c *CompareConfig) { c.Headline = run.HeadlineOwn }, []string{`headline: (absent) before, "own" now`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c2 := c
			tc.change(&c2)
			err := Compare(ctx, c2, io.Discard)
			t.Log(err)
			for _, w := range append(tc.wants, c.Out, "other settings") {
				if err == nil || !strings.Contains(err.Error(), w) {
					t.Errorf("error %v, want it to mention %q", err, w)
				}
			}
			if now, _ := os.ReadFile(manifest); !bytes.Equal(now, saved) {
				t.Errorf("compare.json changed:\n%s", now)
			}
		})
	}
	// A warm-up folder replaced by one made otherwise is not reused.
	wpath := filepath.Join(c.Out, "warmup", run.WarmupFile)
	var w WarmupRecord
	if err := run.ReadJSON(wpath, &w); err != nil || w.Config.Steps != 2 || w.Report.Tokens == 0 {
		t.Fatalf("warmup.json reads back as %+v (%v)", w, err)
	}
	w.Config.Batch = 3
	run.WriteJSON(wpath, w)
	if err := Compare(ctx, c, io.Discard); err == nil || !strings.Contains(err.Error(), "batch: 3 before, 2 now") {
		t.Errorf("a warm-up made otherwise: %v", err)
	}
	// A folder that holds something else is not taken for a comparison.
	other := filepath.Join(t.TempDir(), "other")
	os.MkdirAll(other, 0o755)
	os.WriteFile(filepath.Join(other, "notes.txt"), []byte("mine"), 0o644)
	c3 := c
	c3.Out = other
	if err := Compare(ctx, c3, io.Discard); err == nil || !strings.Contains(err.Error(), "not a comparison folder") {
		t.Errorf("compare into a folder of other files: %v", err)
	}
}

// TestCompareCalibratesAndGrows: a comparison calibrates its warm-up once
// (calibration.json, read by the report), draws one progress bar over all
// runs, and may gain a seed: the old runs are kept and only the new ones run.
func TestCompareCalibratesAndGrows(t *testing.T) {
	ctx := context.Background()
	c := tinyCompare(t)
	c.Calibrate = DefaultCalibrate()
	c.Calibrate.Prompts = 2
	c.Calibrate.MaxZeroVar = 1.01 // the tiny policy's groups never vary: count them anyway (countsSomething)
	c.Train.EvalPrompts = 2
	var log bytes.Buffer
	if err := Compare(ctx, c, &log); err != nil {
		t.Fatal(err)
	}
	var cal run.Calibration
	if err := run.ReadJSON(filepath.Join(c.Out, run.CalibrationFile), &cal); err != nil {
		t.Fatal(err)
	}
	if cal.Prompts != 2 || cal.Group != c.Train.Group || len(cal.Rewards) != 2 || cal.Rewards[0].Groups != 2 || len(cal.Eval) != 2 {
		t.Errorf("calibration %+v", cal)
	}
	if !strings.Contains(log.String(), "calibration: format starts at") || !strings.Contains(log.String(), "compare 2/2") {
		t.Errorf("log lacks the calibration or the one bar over all runs:\n%s", log.String())
	}
	cmp, err := report.LoadCompare(c.Out)
	if err != nil || cmp.Calibration == nil || len(cmp.Calibration.Rewards) != 2 {
		t.Fatalf("the report does not read the calibration: %+v, %v", cmp, err)
	}
	first, _ := os.ReadFile(filepath.Join(c.Out, "runs", "grpo", "seed-1", run.MetricsFile))
	c.Seeds = 2
	log.Reset()
	if err := Compare(ctx, c, &log); err != nil {
		t.Fatal(err)
	}
	if again, _ := os.ReadFile(filepath.Join(c.Out, "runs", "grpo", "seed-1", run.MetricsFile)); !bytes.Equal(again, first) {
		t.Error("a grown comparison ran seed 1 again")
	}
	cmp, err = report.LoadCompare(c.Out)
	if err != nil || len(cmp.Runs) != 4 || len(cmp.Seeds) != 2 {
		t.Fatalf("grown comparison: %+v, %v", cmp, err)
	}
	if strings.Contains(log.String(), "calibrate ") {
		t.Errorf("calibrated again:\n%s", log.String())
	}
}

// TestCompareWarmups: with Warmups 2 a comparison makes two warm-ups with
// their own seeds, calibrates each, and trains every method with every
// seed from each, each run's config naming its warm-up.
func TestCompareWarmups(t *testing.T) {
	ctx := context.Background()
	c := tinyCompare(t)
	c.Warmups = 2
	c.Calibrate = DefaultCalibrate()
	c.Calibrate.Prompts = 2
	c.Calibrate.MaxZeroVar = 1.01 // the tiny policy's groups never vary: count them anyway (countsSomething)
	if err := Compare(ctx, c, io.Discard); err != nil {
		t.Fatal(err)
	}
	var m run.Manifest
	if err := run.ReadJSON(filepath.Join(c.Out, run.ManifestFile), &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Warmups) != 2 || m.Warmups[1].Seed != c.Warmup.Seed+1 || m.Warmups[1].Dir != "warmup-2" || len(m.Runs) != 4 {
		t.Fatalf("manifest warm-ups %+v, %d runs", m.Warmups, len(m.Runs))
	}
	for _, w := range m.Warmups {
		var rec WarmupRecord
		if err := run.ReadJSON(filepath.Join(c.Out, w.Dir, run.WarmupFile), &rec); err != nil || rec.Config.Seed != w.Seed {
			t.Errorf("warm-up %d: %+v (%v)", w.Index, rec.Config, err)
		}
		if _, err := os.Stat(filepath.Join(c.Out, w.Dir, run.CalibrationFile)); err != nil {
			t.Errorf("warm-up %d has no calibration: %v", w.Index, err)
		}
	}
	for _, r := range m.Runs {
		cfg, err := rl.LoadRunConfig(filepath.Join(c.Out, r.Dir))
		if err != nil {
			t.Fatal(err)
		}
		if want := filepath.Join(c.Out, fmt.Sprintf("warmup-%d", r.Warmup)); cfg.Init != want || cfg.Seed != r.Seed {
			t.Errorf("run %s starts from %s with seed %d, want %s and %d", r.Dir, cfg.Init, cfg.Seed, want, r.Seed)
		}
	}
	cmp, err := report.LoadCompare(c.Out)
	if err != nil || len(cmp.Calibrations) != 2 || cmp.Calibration == nil {
		t.Fatalf("the report reads the warm-ups' calibrations as %+v (%v)", cmp, err)
	}
	for _, row := range report.Table(cmp) {
		if len(row.AUCs) != 2 {
			t.Errorf("%s %s: %d paired units, want 2 (one per warm-up)", row.Method, row.Reward, len(row.AUCs))
		}
	}
	c2 := c
	c2.Init = policytest.Dir(t)
	if err := Compare(ctx, c2, io.Discard); err == nil || !strings.Contains(err.Error(), "warmups") {
		t.Errorf("--init with --warmups 2: %v", err)
	}

	// The comparison grows by a warm-up: warm-up 3 is made and calibrated,
	// its runs trained, and the runs of warm-ups 1 and 2 kept as they were.
	first, _ := os.ReadFile(filepath.Join(c.Out, "runs", "grpo", "warmup-1", "seed-1", run.MetricsFile))
	c3 := c
	c3.Warmups = 3
	var log bytes.Buffer
	if err := Compare(ctx, c3, &log); err != nil {
		t.Fatal(err)
	}
	if err := run.ReadJSON(filepath.Join(c.Out, run.ManifestFile), &m); err != nil || len(m.Warmups) != 3 || len(m.Runs) != 6 || m.Warmups[2].Seed != c.Warmup.Seed+2 {
		t.Fatalf("grown manifest: %d warm-ups, %d runs (%v)", len(m.Warmups), len(m.Runs), err)
	}
	if again, _ := os.ReadFile(filepath.Join(c.Out, "runs", "grpo", "warmup-1", "seed-1", run.MetricsFile)); !bytes.Equal(again, first) {
		t.Error("growing the warm-ups trained warm-up 1's runs again")
	}
	if n := strings.Count(log.String(), "finished earlier"); n != 4 {
		t.Errorf("%d runs kept from before, want 4:\n%s", n, log.String())
	}
	// One warm-up fewer is refused: warm-ups are gained, not lost.
	if err := Compare(ctx, c, io.Discard); err == nil || !strings.Contains(err.Error(), "other settings") {
		t.Errorf("back to 2 warm-ups: %v", err)
	}
}

// TestCompareGate: a gate no warm-up passes stops compare before any run,
// naming why; a warm-up whose calibration passes it trains its runs and
// the other is left out (no run trained from it, and the report drops it);
// the gate is fixed in compare.json like the other settings.
func TestCompareGate(t *testing.T) {
	ctx := context.Background()
	c := tinyCompare(t)
	c.Methods = []string{"gdpo", "mrtpo"}
	c.Warmups = 2
	c.Calibrate = DefaultCalibrate()
	c.Calibrate.Prompts = 2
	c.Calibrate.MaxZeroVar = 1.01 // the tiny policy's groups never vary: count them anyway
	c.Gate = run.Gate{"mrtpo": 2}
	err := Compare(ctx, c, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "no warm-up passes the gate") {
		t.Fatalf("a gate nothing passes: %v", err)
	}
	if _, err := os.Stat(filepath.Join(c.Out, "runs")); err == nil {
		t.Error("runs were trained from gated warm-ups")
	}
	// Warm-up 2's policy, say, reads its blocks: its calibration gives
	// mrtpo a localization of 3 on every counted reward.
	path := filepath.Join(c.Out, "warmup-2", run.CalibrationFile)
	var cal run.Calibration
	if err := run.ReadJSON(path, &cal); err != nil {
		t.Fatal(err)
	}
	if len(cal.Localized) != 1 || cal.Localized[0] != "mrtpo" || len(cal.Counted()) == 0 {
		t.Fatalf("the calibration measured %v on counted %v", cal.Localized, cal.Counted())
	}
	for i := range cal.Rewards {
		cal.Rewards[i].Localization = map[string]float64{"mrtpo": 3}
	}
	if err := run.WriteJSON(path, cal); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	if err := Compare(ctx, c, &log); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "warm-up 1 is left out by the gate") || strings.Contains(log.String(), "warm-up 2 is left out") {
		t.Errorf("log:\n%s", log.String())
	}
	for _, dir := range []string{"runs/gdpo/warmup-1/seed-1", "runs/mrtpo/warmup-1/seed-1"} {
		if _, err := os.Stat(filepath.Join(c.Out, dir)); err == nil {
			t.Errorf("%s was trained from a gated warm-up", dir)
		}
	}
	cmp, err := report.LoadCompare(c.Out)
	if err != nil {
		t.Fatal(err)
	}
	if len(cmp.Runs) != 2 || len(cmp.Warmups) != 1 || cmp.Warmups[0].Index != 2 || len(cmp.Gated) != 1 || cmp.Gated[0].Index != 1 {
		t.Fatalf("the report reads %d runs, warm-ups %+v, gated %+v", len(cmp.Runs), cmp.Warmups, cmp.Gated)
	}
	note := report.GateNote(cmp)
	for _, want := range []string{"mrtpo ≥ 2", "Used: warm-up 2 (", "Left out, none of their runs trained or read (1 of 2): warm-up 1 (mrtpo's localization on"} {
		if !strings.Contains(note, want) {
			t.Errorf("gate note lacks %q:\n%s", want, note)
		}
	}
	c2 := c
	c2.Gate = run.Gate{"mrtpo": 1.5}
	if err := Compare(ctx, c2, io.Discard); err == nil || !strings.Contains(err.Error(), "min_localization") {
		t.Errorf("another gate on resume: %v", err)
	}
	c3 := c
	c3.Gate = run.Gate{"p2t": 2}
	if err := Compare(ctx, c3, io.Discard); err == nil || !strings.Contains(err.Error(), "process reward model") {
		t.Errorf("a gate on p2t: %v", err)
	}
}
