package rl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/run"
)

// readMetrics decodes metrics.jsonl.
func readMetrics(t *testing.T, dir string) []map[string]any {
	t.Helper()
	var out []map[string]any
	if err := run.ReadLines(filepath.Join(dir, "metrics.jsonl"), func(b []byte) error {
		var m map[string]any
		out = append(out, m)
		return json.Unmarshal(b, &out[len(out)-1])
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// fakePRM gives every token influence 1 and one step per response.
type fakePRM struct{}

func (fakePRM) Influence(_ context.Context, reqs []credit.InfluenceRequest, _ credit.NullEmbedding) ([]credit.Influence, error) {
	out := make([]credit.Influence, len(reqs))
	for i, r := range reqs {
		out[i].Token = make([]float64, len(r.Offsets))
		for t := range out[i].Token {
			out[i].Token[t] = float64(t%3) + 0.5
		}
		if len(r.Offsets) > 0 {
			out[i].Steps = []credit.StepScore{{Start: 0, End: len(r.Offsets), Logit: float64(len(r.Response)%5) - 2}}
		}
	}
	return out, nil
}

// TestSmoke runs 3 steps of every method on every task with a micro model
// and checks the metrics file: one line per step, every value finite, the
// keys DESIGN.md names present.
func TestSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("smoke runs take a minute")
	}
	for _, taskName := range []string{"toolcall", "sql", "ifeval", "arith"} {
		for _, method := range []string{"grpo", "gdpo", "span", "mrtpo", "p2t", "saw+gdpo"} {
			t.Run(taskName+"/"+method, func(t *testing.T) {
				c := microConfig(t, taskName, method)
				tr := newTrainer(t, c, false, WithPRM(fakePRM{}))
				if err := tr.Run(context.Background()); err != nil {
					t.Fatal(err)
				}
				ms := readMetrics(t, c.Out)
				if len(ms) != c.Steps {
					t.Fatalf("%d metric lines, want %d", len(ms), c.Steps)
				}
				for i, m := range ms {
					for _, key := range []string{"step", "loss/policy", "loss/kl", "clip/ratio", "credit/overhead", "credit/skipped", "time/step", "time/sample", "time/verify", "time/credit", "time/update", "entropy", "response/length"} {
						if _, ok := m[key]; !ok {
							t.Errorf("step %d lacks %q", i, key)
						}
					}
					for k, v := range m {
						f, ok := v.(float64)
						if !ok || math.IsNaN(f) || math.IsInf(f, 0) {
							t.Errorf("step %d: %s = %v is not a finite number", i, k, v)
						}
					}
					// the update's size: every response follows a prompt of at least one token
					pos, _ := m["update/positions"].(float64)
					if least := float64(c.PromptsPerStep * c.Group * 2); pos < least {
						t.Errorf("step %d: update/positions %v, want at least %v", i, pos, least)
					}
					if want := 6 * float64(tr.policy.Model.Config.NumParams()) * pos / 1e9; m["update/gflop"] != want {
						t.Errorf("step %d: update/gflop %v, want 6·%d·%v/1e9 = %v", i, m["update/gflop"], tr.policy.Model.Config.NumParams(), pos, want)
					}
					for _, v := range tr.rewards {
						if _, ok := m["reward/"+v.Name()+"/mean"]; !ok && taskName != "ifeval" {
							t.Errorf("step %d lacks reward/%s/mean", i, v.Name())
						}
					}
				}
				if _, ok := ms[len(ms)-1]["eval/greedy/"+tr.rewards[0].Name()]; !ok && taskName != "ifeval" {
					t.Errorf("the last step has no evaluation: %v", ms[len(ms)-1])
				}
				var n int
				run.ReadLines(filepath.Join(c.Out, "samples.jsonl"), func([]byte) error { n++; return nil })
				if n != c.Steps*c.SamplesPerStep {
					t.Errorf("%d sample lines, want %d", n, c.Steps*c.SamplesPerStep)
				}
			})
		}
	}
}

// TestResumeBitIdentical: 6 steps straight, and 3 steps, an interruption,
// a resume to 6, reach the same weights and optimizer state exactly.
func TestResumeBitIdentical(t *testing.T) {
	// ifeval's constraints (no commas, lowercase …) are met by chance, so
	// the micro policy's rewards vary and the updates move the weights.
	c := microConfig(t, "ifeval", "mrtpo")
	c.Steps, c.CheckpointEvery = 6, 2
	c.EvalPrompts = 0
	straight := newTrainer(t, c, false)
	initial := straight.policy.Model.ParamData()
	if err := straight.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	moved := false
	for i, w := range straight.policy.Model.ParamData() {
		moved = moved || !slices.Equal(w, initial[i])
	}
	if !moved {
		t.Fatal("six steps left the weights unchanged: the test would prove nothing")
	}

	c2 := c
	c2.Out = filepath.Join(t.TempDir(), "interrupted")
	first := newTrainer(t, c2, false)
	ctx, cancel := context.WithCancel(context.Background())
	first.advantageHook = func([][]float64) {
		if first.step == 3 { // cancel during the fourth step: it is abandoned, three are kept
			cancel()
		}
	}
	err := first.Run(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run returned %v", err)
	}
	if first.step != 3 {
		t.Fatalf("interrupted after %d steps, want 3", first.step)
	}
	second := newTrainer(t, c2, true)
	if second.step != 3 {
		t.Fatalf("resumed at step %d, want 3", second.step)
	}
	if err := second.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	a, b := straight.policy.Model.ParamData(), second.policy.Model.ParamData()
	for i, p := range straight.policy.Model.Specs() {
		if !slices.Equal(a[i], b[i]) {
			t.Errorf("tensor %s differs after resume", p.Name)
		}
	}
	ma, va := straight.opt.OptimizerState()
	mb, vb := second.opt.OptimizerState()
	for i := range ma {
		if !slices.Equal(ma[i], mb[i]) || !slices.Equal(va[i], vb[i]) {
			t.Errorf("optimizer state %d differs after resume", i)
		}
	}
	if straight.opt.Steps() != second.opt.Steps() {
		t.Errorf("update counts %d and %d", straight.opt.Steps(), second.opt.Steps())
	}
	// The logs match line for line, times aside.
	ms, mi := readMetrics(t, c.Out), readMetrics(t, c2.Out)
	if len(ms) != len(mi) {
		t.Fatalf("%d and %d metric lines", len(ms), len(mi))
	}
	for i := range ms {
		for k, v := range ms[i] {
			if !strings.HasPrefix(k, "time/") && k != "credit/overhead" && fmt.Sprint(v) != fmt.Sprint(mi[i][k]) {
				t.Errorf("step %d %s: %v straight, %v resumed", i, k, v, mi[i][k])
			}
		}
	}
	// Only the newest checkpoints are kept.
	steps, _ := checkpointSteps(filepath.Join(c.Out, "checkpoints"))
	if !slices.Equal(steps, []int{4, 6}) {
		t.Errorf("checkpoints kept: %v, want [4 6]", steps)
	}
}

// TestNonFiniteSkipsUpdate: a NaN advantage makes the loss NaN; the update
// is skipped and counted, and nothing changes.
func TestNonFiniteSkipsUpdate(t *testing.T) {
	c := microConfig(t, "toolcall", "gdpo")
	c.Steps = 1
	c.EvalPrompts = 0
	tr := newTrainer(t, c, false)
	before := tr.policy.Model.ParamData()
	mom0, _ := tr.opt.OptimizerState()
	tr.advantageHook = func(a [][]float64) { a[0][0] = math.NaN() }
	if err := tr.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	after := tr.policy.Model.ParamData()
	for i := range before {
		if !slices.Equal(before[i], after[i]) {
			t.Fatalf("weights changed by a skipped update")
		}
	}
	mom1, _ := tr.opt.OptimizerState()
	for i := range mom0 {
		if !slices.Equal(mom0[i], mom1[i]) {
			t.Fatalf("optimizer state changed by a skipped update")
		}
	}
	ms := readMetrics(t, c.Out)
	if ms[0]["update/skipped"] != 1.0 || tr.opt.Steps() != 0 {
		t.Errorf("skipped updates %v, applied %d", ms[0]["update/skipped"], tr.opt.Steps())
	}
}

func TestConfigErrors(t *testing.T) {
	ctx := context.Background()
	base := microConfig(t, "toolcall", "gdpo")
	cases := []struct {
		name   string
		change func(*Config)
		opts   []Option
		want   string
	}{
		{"group of one", func(c *Config) { c.Group = 1 }, nil, "group: must be at least 2"},
		{"unknown method", func(c *Config) { c.Method = "ppo" }, nil, "known: gdpo, grpo, mrtpo, p2t, p2t-code, p2t-step, span"},
		{"unknown task", func(c *Config) { c.Task = "chess" }, nil, "unknown task"},
		{"p2t without PRM", func(c *Config) { c.Method = "p2t" }, nil, "--prm"},
		{"bad aggregation", func(c *Config) { c.LossAgg = "sum" }, nil, "loss_agg"},
		{"no init", func(c *Config) { c.Init = "" }, nil, "init"},
		{"missing init folder", func(c *Config) { c.Init = filepath.Join(t.TempDir(), "none") }, nil, "not a checkpoint folder"},
		{"unknown weight", func(c *Config) { c.Weights = map[string]float64{"speed": 2} }, nil, `"speed" is not a reward`},
		{"bad judge", func(c *Config) { c.Judges = []string{"url=nowhere"} }, nil, "judge"},
		{"bad beta", func(c *Config) { c.Credit.Beta = 2 }, nil, "credit"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := base
			c.Out = filepath.Join(t.TempDir(), "run")
			tc.change(&c)
			_, err := New(ctx, c, false, os.Stderr, tc.opts...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
	// A run directory that holds a run is not overwritten.
	c := base
	c.Steps = 1
	c.EvalPrompts = 0
	tr := newTrainer(t, c, false)
	if err := tr.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := New(ctx, c, false, os.Stderr); err == nil || !strings.Contains(err.Error(), "--resume") {
		t.Errorf("reusing a run directory: %v", err)
	}
	if tr2 := newTrainer(t, c, true); !tr2.Done() {
		t.Error("a finished run resumed as unfinished")
	}
}

func TestLoadConfigFile(t *testing.T) {
	dir := t.TempDir()
	yml := filepath.Join(dir, "c.yaml")
	os.WriteFile(yml, []byte("task: arith\nmethod: span\nsteps: 7\nlr: 0.002\nverify_timeout: 2s\ncredit:\n  beta: 0.25\n"), 0o644)
	c := DefaultConfig()
	if err := LoadConfigFile(yml, &c); err != nil {
		t.Fatal(err)
	}
	if c.Task != "arith" || c.Method != "span" || c.Steps != 7 || c.Peak != 0.002 || c.Credit.Beta != 0.25 || c.Credit.Gamma != 0.9 || c.VerifyTimeout.String() != "2s" {
		t.Errorf("YAML config read as %+v", c)
	}
	js := filepath.Join(dir, "c.json")
	os.WriteFile(js, []byte(`{"task":"sql","group":4}`), 0o644)
	if err := LoadConfigFile(js, &c); err != nil || c.Task != "sql" || c.Group != 4 {
		t.Errorf("JSON config: %v %+v", err, c)
	}
	for name, body := range map[string]string{"u.yaml": "stepz: 3\n", "u.json": `{"stepz":3}`, "bad.json": `{`} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o644)
		if err := LoadConfigFile(p, &c); err == nil {
			t.Errorf("%s accepted", name)
		}
	}
	// config.json round-trips through the loader.
	data, _ := json.Marshal(DefaultConfig())
	os.WriteFile(js, data, 0o644)
	back := Config{}
	if err := LoadConfigFile(js, &back); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(back) != fmt.Sprint(DefaultConfig()) {
		t.Errorf("config.json does not round-trip:\n%+v\n%+v", back, DefaultConfig())
	}
}

// TestEvalsLog: every evaluation writes each reward's greedy score on each
// test prompt to evals.jsonl, aligned with the mean in metrics.jsonl.
func TestEvalsLog(t *testing.T) {
	c := microConfig(t, "toolcall", "gdpo")
	c.Steps, c.EvalEvery, c.EvalPrompts = 2, 1, 3
	tr := newTrainer(t, c, false)
	if err := tr.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	var evals []run.EvalRecord
	if err := run.ReadLines(filepath.Join(c.Out, run.EvalsFile), func(b []byte) error {
		var e run.EvalRecord
		evals = append(evals, e)
		return json.Unmarshal(b, &evals[len(evals)-1])
	}); err != nil {
		t.Fatal(err)
	}
	ms := readMetrics(t, c.Out)
	if len(evals) != 2 || evals[0].Step != 1 || evals[1].Step != 2 {
		t.Fatalf("evals.jsonl holds %d records (%+v), want steps 1 and 2", len(evals), evals)
	}
	for _, e := range evals {
		for name, scores := range e.Greedy {
			if len(scores) != c.EvalPrompts {
				t.Fatalf("step %d %s: %d scores for %d prompts", e.Step, name, len(scores), c.EvalPrompts)
			}
			sum, n := 0.0, 0
			for _, s := range scores {
				if s != nil {
					sum, n = sum+*s, n+1
				}
			}
			if want, ok := ms[e.Step-1]["eval/greedy/"+name].(float64); !ok || n == 0 || math.Abs(sum/float64(n)-want) > 1e-12 {
				t.Errorf("step %d %s: per-prompt mean %v, metrics.jsonl %v", e.Step, name, sum/float64(max(n, 1)), want)
			}
		}
	}
}
