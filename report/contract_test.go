package report_test

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/credo-rl/credo/report"
	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/rl"
	"github.com/credo-rl/credo/run"
)

// requireAllSet fails for any field of v (through structs, and the first
// element of slices) left at its zero value: a field added to a record
// type must be filled in these fixtures, so the round trips below cover it.
func requireAllSet(t *testing.T, v reflect.Value, path string) {
	t.Helper()
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			requireAllSet(t, v.Field(i), path+"."+v.Type().Field(i).Name)
		}
	case reflect.Slice, reflect.Map:
		if v.Len() == 0 {
			t.Errorf("%s is empty in the fixture: fill it", path)
		} else if v.Kind() == reflect.Slice {
			requireAllSet(t, v.Index(0), path+"[0]")
		}
	default:
		if v.IsZero() {
			t.Errorf("%s is zero in the fixture: fill it", path)
		}
	}
}

// TestRunRecordsRoundTrip: a run directory written the way rl writes it
// (its Config as config.json, run.Log appends of every record type:
// metrics, samples, evaluations) reads back through report with every
// field.
func TestRunRecordsRoundTrip(t *testing.T) {
	sample := run.Sample{
		Step: 1, Index: 9, Prompt: "p", Response: "ab c", Tokens: []string{"ab", " c", ""},
		Offsets: [][2]int{{0, 2}, {2, 4}, {4, 4}}, Advantages: []float64{0.5, -1, 0}, Advantage: 0.25,
		Relevance: map[string][]float64{"call": {0, 1, 0.5}},
		Verdicts:  []run.Verdict{{Reward: "call", Score: 0.5, Info: "ref", Spans: []reward.Span{{Start: 1, End: 3, Strength: 2, Effect: reward.Lowered}}, Reason: "why", Skip: true}},
	}
	requireAllSet(t, reflect.ValueOf(sample), "run.Sample")
	dir := t.TempDir()
	cfg := rl.DefaultConfig()
	cfg.Task, cfg.Method, cfg.Steps, cfg.Seed = "sql", "span", 7, 42
	cfg.Difficulty = "joins=0" // the page's introduction names it
	if err := run.WriteJSON(filepath.Join(dir, run.ConfigFile), cfg); err != nil {
		t.Fatal(err)
	}
	ml, err := run.OpenMetrics(filepath.Join(dir, run.MetricsFile), 0)
	if err != nil {
		t.Fatal(err)
	}
	metrics := []run.Metrics{
		{run.KeyStep: 1, run.RewardKey("call", "mean"): 0.5, run.KeyTimeStep: 1.5, "loss/kl": math.NaN()},
		{run.KeyStep: 2, run.RewardKey("call", "mean"): 0.75, run.EvalKey("greedy", "call"): 1, "update/skipped": 2},
	}
	sl, err := run.OpenSamples(filepath.Join(dir, run.SamplesFile), 0)
	if err != nil {
		t.Fatal(err)
	}
	// An evaluation's per-prompt scores: null where the reward does not
	// apply (the retention columns follow prompts through them).
	one, half := 1.0, 0.5
	eval := run.EvalRecord{Step: 2, Greedy: map[string][]*float64{"call": {&one, nil, &half}}}
	requireAllSet(t, reflect.ValueOf(eval), "run.EvalRecord")
	el, err := run.OpenEvals(filepath.Join(dir, run.EvalsFile), 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(ml.Append(metrics...), sl.Append(sample), el.Append(eval)); err != nil {
		t.Fatal(err)
	}
	r, err := report.LoadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	if r.Task != cfg.Task || r.Difficulty != cfg.Difficulty || r.Method != cfg.Method || r.Steps != cfg.Steps || r.Seed != cfg.Seed || !r.Incomplete {
		t.Errorf("config.json read as task %q difficulty %q method %q steps %d seed %d", r.Task, r.Difficulty, r.Method, r.Steps, r.Seed)
	}
	if len(r.Samples) != 1 || !reflect.DeepEqual(r.Samples[0], sample) {
		t.Errorf("sample read back as %+v\nwant %+v", r.Samples, sample)
	}
	if len(r.Evals) != 1 || !reflect.DeepEqual(r.Evals[0], eval) {
		t.Errorf("evals.jsonl read back as %+v\nwant %+v", r.Evals, eval)
	}
	delete(metrics[0], "loss/kl") // NaN is written as null and reads back as absent
	if len(r.Metrics) != 2 || !reflect.DeepEqual(r.Metrics[0], metrics[0]) || !reflect.DeepEqual(r.Metrics[1], metrics[1]) {
		t.Errorf("metrics read back as %v\nwant %v", r.Metrics, metrics)
	}
}

// TestInfoMatchesConfig: run.Info's keys are rl.Config's, so config.json
// names a run for report as rl meant it.
func TestInfoMatchesConfig(t *testing.T) {
	cfg := rl.DefaultConfig()
	cfg.Task, cfg.Method, cfg.Steps, cfg.Seed = "arith", "p2t", 11, 5
	data, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var info run.Info
	if err := json.Unmarshal(data, &info); err != nil {
		t.Fatal(err)
	}
	requireAllSet(t, reflect.ValueOf(info), "run.Info")
	want := run.Info{Task: cfg.Task, Method: cfg.Method, Steps: cfg.Steps, Seed: cfg.Seed}
	if info != want {
		t.Errorf("rl.Config read as %+v, want %+v", info, want)
	}
}

// TestManifestRoundTrip: every field of compare.json reaches the report's
// Comparison, or is listed here with the reason it does not.
func TestManifestRoundTrip(t *testing.T) {
	m := run.Manifest{
		Task: "toolcall", Methods: []string{"grpo", "span"}, Seeds: []uint64{3}, Steps: 4,
		Threshold: 0.6, Window: 2, Warmup: "warmup",
		Warmups:      []run.ManifestWarmup{{Index: 1, Dir: "warmup-1", Seed: 5}},
		Runs:         []run.ManifestRun{{Method: "grpo", Seed: 3, Warmup: 1, Dir: "runs/grpo/seed-3"}, {Method: "span", Seed: 3, Warmup: 1, Dir: "runs/span/seed-3"}},
		Train:        json.RawMessage(`{"steps":4,"difficulty":"tools=3"}`),
		WarmupConfig: json.RawMessage(`{"steps":9}`),
		Baselines:    []string{"grpo"},
		Headline:     run.HeadlineOwn,
		Gate:         run.Gate{"mrtpo": 2},
	}
	requireAllSet(t, reflect.ValueOf(m), "run.Manifest")
	dir := t.TempDir()
	for _, r := range m.Runs {
		rd := filepath.Join(dir, r.Dir)
		cfg := rl.DefaultConfig()
		cfg.Task, cfg.Method, cfg.Steps, cfg.Seed = m.Task, "ignored: the manifest names the run", m.Steps, 99
		if err := errors.Join(os.MkdirAll(rd, 0o755), run.WriteJSON(filepath.Join(rd, run.ConfigFile), cfg), run.WriteFile(filepath.Join(rd, run.MetricsFile), []byte(`{"step":0}`))); err != nil {
			t.Fatal(err)
		}
	}
	if err := run.WriteJSON(filepath.Join(dir, run.ManifestFile), m); err != nil {
		t.Fatal(err)
	}
	c, err := report.LoadCompare(dir)
	if err != nil {
		t.Fatal(err)
	}
	shown := map[string]bool{
		"Task":      c.Task == m.Task,
		"Methods":   reflect.DeepEqual(c.Methods, m.Methods),
		"Seeds":     reflect.DeepEqual(c.Seeds, m.Seeds),
		"Steps":     c.Steps == m.Steps,
		"Threshold": c.Threshold == m.Threshold,
		"Window":    c.Window == m.Window,
		"Warmup":    c.Warmup == m.Warmup,
		"Baselines": reflect.DeepEqual(c.Baselines, m.Baselines),
		"Warmups":   reflect.DeepEqual(c.Warmups, m.Warmups),
		"Headline":  c.Headline == m.Headline,
		// a warm-up without a calibration is not gated: it stays
		"Gate": reflect.DeepEqual(c.Gate, m.Gate) && len(c.Gated) == 0 && len(c.Warmups) == 1,
		"Runs": len(c.Runs) == 2 && c.Runs[0].Method == "grpo" && c.Runs[1].Method == "span" && c.Runs[1].Seed == 3 &&
			c.Runs[1].Dir == filepath.Join(dir, m.Runs[1].Dir) && c.Runs[1].Warmup == 1,
	}
	notShown := map[string]string{
		"Train":        "settings a later compare into the folder is checked against; the runs' config.json hold them too (the report takes the difficulty and credit.scale_to from it)",
		"WarmupConfig": "the same, for the warm-up",
	}
	if c.Difficulty != "tools=3" {
		t.Errorf("the difficulty in compare.json's train settings read as %q", c.Difficulty)
	}
	for i := range reflect.TypeFor[run.Manifest]().NumField() {
		name := reflect.TypeFor[run.Manifest]().Field(i).Name
		ok, known := shown[name]
		switch {
		case known && !ok:
			t.Errorf("run.Manifest.%s does not read back into report.Comparison: %+v", name, c)
		case !known && notShown[name] == "":
			t.Errorf("run.Manifest.%s is new: show it in report.Comparison, or list it in notShown with the reason", name)
		}
	}
}
