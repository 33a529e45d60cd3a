package rl

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/credo-rl/credo/internal/settings"
	"github.com/credo-rl/credo/model/hf"

	"github.com/credo-rl/credo/run"
)

// These tests pin issue 14's data-loss and corruption failures: each failed
// before the fix.

// TestFailedStartLeavesNothing: a run that cannot start leaves no folder
// (issue 14: `train --init <bad>` left runs/x/checkpoints/, which then
// blocked the retry).
func TestFailedStartLeavesNothing(t *testing.T) {
	base := microConfig(t, "toolcall", "gdpo")
	closed := closedURL(t)
	for name, change := range map[string]func(*Config){
		"missing init":       func(c *Config) { c.Init = filepath.Join(t.TempDir(), "none") },
		"NaN learning rate":  func(c *Config) { c.Peak = math.NaN() },
		"infinite weight":    func(c *Config) { c.Weights = map[string]float64{"format": math.Inf(1)} },
		"unreachable judge":  func(c *Config) { c.Judges = []string{"name=q,url=" + closed + ",model=m,retries=0"} },
		"judge named format": func(c *Config) { c.Judges = []string{"name=format,url=" + closed + ",model=m"} },
	} {
		t.Run(name, func(t *testing.T) {
			c := base
			c.Out = filepath.Join(t.TempDir(), "runs", "x")
			change(&c)
			if _, err := New(context.Background(), c, false, io.Discard); err == nil {
				t.Fatal("the run started")
			}
			if _, err := os.Stat(c.Out); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a failed start left %s behind (%v)", c.Out, err)
			}
		})
	}
}

// closedURL is an http URL where nothing listens.
func closedURL(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr + "/v1"
}

// TestResumeKeepsSavedConfig: a resume continues the run as it was
// started; a setting that may not change is an error naming it; one that
// may (steps) is applied and recorded; resuming a folder that holds no run
// is an error (issue 14: a 6-step run resumed with the README's command
// became 60 steps at 8×8, `--steps 9 --resume` silently rewrote
// config.json, and --resume into a missing folder started a new run).
func TestResumeKeepsSavedConfig(t *testing.T) {
	c := microConfig(t, "toolcall", "gdpo")
	c.Steps, c.EvalPrompts, c.CheckpointEvery = 2, 0, 1
	tr := newTrainer(t, c, false)
	if err := tr.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()

	other := c
	other.Peak, other.Group = 5e-3, 4
	_, err := New(ctx, other, true, io.Discard)
	var ce *settings.Error
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "lr:") || !strings.Contains(err.Error(), "group:") {
		t.Errorf("resuming with another lr and group: %v", err)
	}

	// --steps below the run's step: the healthy checkpoint is not called
	// damaged (issue 49: the hint said to move it out), the error names the
	// step and the --steps to pass, and nothing is written.
	shorter := c
	shorter.Steps = 1
	_, err = New(ctx, shorter, true, io.Discard)
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "at step 2, past --steps 1") ||
		!strings.Contains(err.Error(), "--steps 3 or more") || strings.Contains(err.Error(), "damaged") {
		t.Errorf("resuming with --steps below the run's step: %v", err)
	}
	if saved, err := LoadRunConfig(c.Out); err != nil || saved.Steps != 2 {
		t.Errorf("config.json after the refused resume: steps %d, %v", saved.Steps, err)
	}

	longer := c
	longer.Steps = 3
	tr2, err := New(ctx, longer, true, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if tr2.Step() != 2 || tr2.Done() {
		t.Errorf("resumed at step %d (done %v), want 2 of 3", tr2.Step(), tr2.Done())
	}
	saved, err := LoadRunConfig(c.Out)
	if err != nil || saved.Steps != 3 {
		t.Errorf("config.json after extending: steps %d, %v", saved.Steps, err)
	}
	var recs []ResumeRecord
	if err := run.ReadJSON(filepath.Join(c.Out, ResumesFile), &recs); err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 || recs[0].Step != 2 || len(recs[0].Changes) != 1 || recs[0].Changes[0].Key != "steps" {
		t.Errorf("resumes.json: %+v", recs)
	}

	missing := c
	missing.Out = filepath.Join(t.TempDir(), "nothing")
	if _, err := New(ctx, missing, true, io.Discard); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("resuming a missing folder: %v", err)
	}
	if _, err := os.Stat(missing.Out); !errors.Is(err, os.ErrNotExist) {
		t.Error("resuming a missing folder created it")
	}
}

// TestNonFiniteRunStops: a learning rate that overflows every update
// (issue 14: --lr 3e38 made every weight NaN at step 0, later steps were
// skipped, and the run saved an all-NaN checkpoint and exited 0) stops the
// run with an error after MaxSkippedSteps steps, and no checkpoint holds a
// non-finite number.
func TestNonFiniteRunStops(t *testing.T) {
	c := microConfig(t, "toolcall", "gdpo")
	c.Steps, c.EvalPrompts, c.CheckpointEvery, c.Peak = 5, 0, 1, 3e38
	tr := newTrainer(t, c, false)
	err := tr.Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "no update could be applied") {
		t.Fatalf("run with lr 3e38: %v", err)
	}
	if tr.Step() != MaxSkippedSteps {
		t.Errorf("stopped after %d steps, want %d", tr.Step(), MaxSkippedSteps)
	}
	for _, w := range tr.policy.Model.ParamData() {
		for _, x := range w {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				t.Fatal("a non-finite weight")
			}
		}
	}
	steps, _ := checkpointSteps(filepath.Join(c.Out, "checkpoints"))
	for _, s := range steps {
		m, err := hf.Load(filepath.Join(c.Out, "checkpoints", checkpointName(s)))
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range m.ParamData() {
			if slices.ContainsFunc(w, func(x float32) bool { return math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) }) {
				t.Fatalf("checkpoint %d holds a non-finite weight", s)
			}
		}
	}
}

// TestCorruptCheckpointRefused: a resume verifies the checkpoint (issue 14:
// a flipped bit in weights or optimizer data, a NaN weight, state.json
// with a wrong step or updates = -1 all resumed with exit 0).
func TestCorruptCheckpointRefused(t *testing.T) {
	c := microConfig(t, "toolcall", "gdpo")
	c.Steps, c.EvalPrompts, c.CheckpointEvery = 2, 0, 2
	tr := newTrainer(t, c, false)
	if err := tr.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(c.Out, "checkpoints", checkpointName(2))
	flip := func(name string) func(dir string) {
		return func(dir string) {
			p := filepath.Join(dir, name)
			b, _ := os.ReadFile(p)
			b[len(b)-3] ^= 0x10
			os.WriteFile(p, b, 0o644)
		}
	}
	// unverified edits happen to a checkpoint with no checksums and no
	// pinned configuration (as an older credo wrote them), so that the
	// other checks are what catch them.
	unverified := func(edit func(dir string)) func(dir string) {
		return func(dir string) {
			var st checkpointState
			run.ReadJSON(filepath.Join(dir, "state.json"), &st)
			st.ConfigSHA256 = ""
			run.WriteJSON(filepath.Join(dir, "state.json"), st)
			os.Remove(filepath.Join(dir, RunConfigFile))
			os.Remove(filepath.Join(dir, checksumsFile))
			edit(dir)
		}
	}
	state := func(s checkpointState) func(dir string) {
		return func(dir string) { run.WriteJSON(filepath.Join(dir, "state.json"), s) }
	}
	nanWeight := func(dir string) {
		m, _ := hf.Load(dir)
		ts := map[string]hf.Tensor{}
		for i, d := range m.ParamData() {
			if i == 0 {
				d[0] = float32(math.NaN())
			}
			ts[m.Specs()[i].Name] = hf.Tensor{Shape: m.Specs()[i].Shape, Data: d}
		}
		hf.WriteSafetensors(filepath.Join(dir, "model.safetensors"), ts)
	}
	for _, tc := range []struct {
		name string
		edit func(dir string)
		want string
	}{
		{"flipped bit in weights", flip("model.safetensors"), "model.safetensors has changed"},
		{"flipped bit in optimizer state", flip("optimizer.safetensors"), "optimizer.safetensors has changed"},
		{"state.json edited", state(checkpointState{Step: 2, Updates: 1, Seed: c.Seed}), "state.json has changed"},
		{"NaN weight", unverified(nanWeight), "not finite"},
		{"wrong step", unverified(state(checkpointState{Step: 1, Updates: 1, Seed: c.Seed})), "step 1, but the folder is step-000002"},
		{"updates -1", unverified(state(checkpointState{Step: 2, Updates: -1, Seed: c.Seed})), "updates -1"},
		{"updates past the steps", unverified(state(checkpointState{Step: 2, Updates: 9, Seed: c.Seed})), "updates 9"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cc := c
			cc.Out = filepath.Join(t.TempDir(), "run")
			if err := os.CopyFS(cc.Out, os.DirFS(c.Out)); err != nil {
				t.Fatal(err)
			}
			cfg := cc
			run.WriteJSON(filepath.Join(cc.Out, "config.json"), cfg)
			tc.edit(filepath.Join(cc.Out, "checkpoints", filepath.Base(good)))
			_, err := New(context.Background(), cc, true, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("resuming: %v, want an error mentioning %q", err, tc.want)
			}
		})
	}
}

// TestStrayCheckpointsRemoved: what a kill during a checkpoint write
// leaves (.step-*.tmp*, step-*.old) is removed on resume.
func TestStrayCheckpointsRemoved(t *testing.T) {
	c := microConfig(t, "toolcall", "gdpo")
	c.Steps, c.EvalPrompts, c.CheckpointEvery = 1, 0, 1
	tr := newTrainer(t, c, false)
	if err := tr.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(c.Out, "checkpoints")
	for _, d := range []string{".step-000002.tmp1234", "step-000001.old"} {
		os.MkdirAll(filepath.Join(root, d), 0o755)
		os.WriteFile(filepath.Join(root, d, "model.safetensors"), []byte("half"), 0o644)
	}
	newTrainer(t, c, true)
	entries, _ := os.ReadDir(root)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{"step-000001"}) {
		t.Errorf("checkpoints after resume: %v", names)
	}
}

// TestStepNumbersAgree: metrics, samples, checkpoint names and the
// progress bar count steps the same way, from 1 (issue 14: metrics
// counted from 0, checkpoints and the bar from 1).
func TestStepNumbersAgree(t *testing.T) {
	c := microConfig(t, "toolcall", "gdpo")
	c.Steps, c.EvalPrompts, c.CheckpointEvery, c.KeepCheckpoints, c.SamplesPerStep = 3, 0, 1, 3, 1
	tr := newTrainer(t, c, false)
	if err := tr.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, m := range readMetrics(t, c.Out) {
		got = append(got, int(m["step"].(float64)))
	}
	ckpts, _ := checkpointSteps(filepath.Join(c.Out, "checkpoints"))
	var samples []int
	run.ReadLines(filepath.Join(c.Out, "samples.jsonl"), func(b []byte) error {
		var s run.Sample
		err := json.Unmarshal(b, &s)
		samples = append(samples, s.Step)
		return err
	})
	want := []int{1, 2, 3}
	if !slices.Equal(got, want) || !slices.Equal(ckpts, want) || !slices.Equal(samples, want) {
		t.Errorf("metrics steps %v, samples %v, checkpoints %v: want %v for all", got, samples, ckpts, want)
	}
}

// fakeJudge is an OpenAI-compatible server that lists model m and answers
// a one-token probe, and fails every real verdict with 500.
func fakeJudge(t *testing.T) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models"):
			io.WriteString(w, `{"object":"list","data":[{"id":"m","object":"model"}]}`)
		case r.Method == http.MethodPost:
			var req struct {
				MaxTokens int `json:"max_tokens"`
			}
			json.NewDecoder(r.Body).Decode(&req)
			if req.MaxTokens == 1 {
				io.WriteString(w, `{"choices":[{"message":{"role":"assistant","content":"OK"},"finish_reason":"length"}]}`)
				return
			}
			http.Error(w, `{"error":{"message":"overloaded"}}`, http.StatusInternalServerError)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

// TestJudgeErrorsStopRun: a judge whose verdicts fail is counted in the
// metrics and stops the run past max_verify_errors (issue 14: with nothing
// listening, train ran on with every judge score 0 and exited 0).
func TestJudgeErrorsStopRun(t *testing.T) {
	c := microConfig(t, "toolcall", "gdpo")
	c.Steps, c.EvalPrompts = 3, 0
	c.Judges = []string{"name=q,url=" + fakeJudge(t) + ",model=m,retries=0"}
	tr := newTrainer(t, c, false)
	err := tr.Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "max_verify_errors") || !strings.Contains(err.Error(), "reward q") {
		t.Fatalf("a run whose judge always fails: %v", err)
	}
	ms := readMetrics(t, c.Out)
	if len(ms) != 1 || ms[0]["verify/errors/q"] != float64(c.PromptsPerStep*c.Group) {
		t.Errorf("metrics: %v", ms)
	}
	if tr.VerifyErrors()["q"] != c.PromptsPerStep*c.Group {
		t.Errorf("VerifyErrors %v", tr.VerifyErrors())
	}
}

// TestInterruptedError: a cancelled run returns an *InterruptedError
// naming its checkpoint, so each command can say truthfully what to run
// next.
func TestInterruptedError(t *testing.T) {
	c := microConfig(t, "toolcall", "gdpo")
	c.Steps, c.EvalPrompts = 3, 0
	tr := newTrainer(t, c, false)
	ctx, cancel := context.WithCancel(context.Background())
	tr.advantageHook = func([][]float64) {
		if tr.step == 1 {
			cancel()
		}
	}
	err := tr.Run(ctx)
	var ie *InterruptedError
	if !errors.As(err, &ie) || !errors.Is(err, context.Canceled) || ie.Step != 1 || filepath.Base(ie.Checkpoint) != "step-000001" {
		t.Fatalf("interrupted run: %v (%+v)", err, ie)
	}
	if _, err := os.Stat(ie.Checkpoint); err != nil {
		t.Error(err)
	}
}
