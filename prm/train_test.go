package prm

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/credo-rl/credo/model"
	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/sample"
	"github.com/credo-rl/credo/task"
	_ "github.com/credo-rl/credo/task/ifeval" // a task without step labels
)

// quickTrain is a tiny training run for tests.
func quickTrain() TrainConfig {
	c := DefaultTrain()
	c.Size, c.Examples, c.HeldOut, c.Steps, c.Batch, c.LRWarmup, c.Agreement = "tiny", 64, 16, 3, 8, 1, 2
	return c
}

// TestTrainWritesFolder: a short run reports its data and held-out
// metrics, writes a PRM folder that loads, and is reproducible.
func TestTrainWritesFolder(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "prm")
	var log bytes.Buffer
	p, rep, err := Train(ctx, quickTrain(), dir, &log)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Sequences != 64 || rep.Steps < 2*64 || rep.Positive <= 0.2 || rep.Positive >= 0.9 || rep.Skipped != 0 {
		t.Errorf("training data: %+v", rep)
	}
	ho := rep.HeldOut
	if ho.All.Steps < 16 || ho.All.AUC == nil || len(ho.ByKind) != 4 {
		t.Errorf("held-out report: %+v", ho)
	}
	if ho.ByKind["clean"].Positive != 1 || ho.ByKind["clean"].AUC != nil {
		t.Errorf("clean held-out solutions: %+v", ho.ByKind["clean"])
	}
	if rep.Agreement == nil || rep.Agreement.Steps == 0 {
		t.Errorf("agreement: %+v", rep.Agreement)
	}
	if !strings.Contains(log.String(), "prm train 3/3") {
		t.Errorf("no progress in the log:\n%s", log.String())
	}
	for _, f := range []string{TrainFile, InfoFile, "model.safetensors"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	q, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	// arith registers its step labeler: the PRM splits with it, found by
	// name, and needs no separator.
	if q.Info != (Info{Task: "arith"}) {
		t.Errorf("info %+v", q.Info)
	}
	again, _, err := Train(ctx, quickTrain(), "", &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	a := p.Model.(*model.Model).ParamData()
	b := again.Model.(*model.Model).ParamData()
	for i := range a {
		if !slices.Equal(a[i], b[i]) {
			t.Fatalf("two runs with one seed differ in tensor %d", i)
		}
	}
}

func TestTrainErrors(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		edit func(*TrainConfig)
		want string
	}{
		{"no steps", func(c *TrainConfig) { c.Steps = 0 }, "steps"},
		{"unknown task", func(c *TrainConfig) { c.Task = "nope" }, "nope"},
		{"task without labels", func(c *TrainConfig) { c.Task = "ifeval" }, "step labels"},
		{"unknown size", func(c *TrainConfig) { c.Size = "huge" }, "huge"},
		{"missing policy", func(c *TrainConfig) { c.Policy.Dir = filepath.Join(t.TempDir(), "none") }, "none"},
		{"no data", func(c *TrainConfig) { c.Examples, c.HeldOut = 0, 0 }, "no training response"},
	} {
		c := quickTrain()
		tc.edit(&c)
		_, _, err := Train(ctx, c, "", &bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one mentioning %q", tc.name, err, tc.want)
		}
	}
}

// TestSyntheticHeldOut: the held-out set is balanced over the four kinds,
// drawn from test prompts, and labelled by the task.
func TestSyntheticHeldOut(t *testing.T) {
	tk, err := task.New("arith", task.Config{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	exs, err := Synthetic(tk, task.Test, 40, 1)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for i, ex := range exs {
		kinds[ex.Kind]++
		if want := tk.Prompt(task.Test, i).Text; ex.Prompt != want && len(exs) == 40 {
			t.Errorf("example %d answers %q, want test prompt %q", i, ex.Prompt, want)
		}
		wrong := 0
		for _, s := range ex.Steps {
			if !s.Correct {
				wrong++
			}
		}
		if (ex.Kind == "clean") != (wrong == 0) {
			t.Errorf("example %d (%s) has %d wrong steps: %q", i, ex.Kind, wrong, ex.Response)
		}
	}
	if len(kinds) != 4 || kinds["clean"] < 8 {
		t.Errorf("kinds %v", kinds)
	}
	if _, err := Synthetic(mustTask(t, "ifeval"), task.Train, 4, 1); err == nil {
		t.Error("a task that cannot corrupt its solutions gave synthetic data")
	}
}

func mustTask(t *testing.T, name string) task.Task {
	t.Helper()
	tk, err := task.New(name, task.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return tk
}

// TestFromLanguageModel: the scoring model keeps the language model's
// embeddings and layers and gets a scoring head; Train starts from it.
func TestFromLanguageModel(t *testing.T) {
	tok := mustBytes()
	lm, err := model.New(model.Tiny(tok.VocabSize()), 7)
	if err != nil {
		t.Fatal(err)
	}
	m, err := FromLanguageModel(lm, 1)
	if err != nil {
		t.Fatal(err)
	}
	if m.Config.NumLabels != 1 || m.Config.TieWordEmbeddings {
		t.Errorf("config %+v", m.Config)
	}
	have := map[string][]float32{}
	for i, d := range lm.ParamData() {
		have[lm.Specs()[i].Name] = d
	}
	copied := 0
	for i, d := range m.ParamData() {
		name := m.Specs()[i].Name
		if want, ok := have[name]; ok {
			if !slices.Equal(d, want) {
				t.Errorf("%s was not copied", name)
			}
			copied++
		} else if name != "score.weight" {
			t.Errorf("unexpected tensor %s", name)
		}
	}
	if copied != len(m.Specs())-1 {
		t.Errorf("copied %d of %d tensors", copied, len(m.Specs()))
	}
	if _, err := FromLanguageModel(m, 1); err == nil {
		t.Error("a scoring model was accepted as a language model")
	}

	dir := filepath.Join(t.TempDir(), "policy")
	if err := (&policy.Policy{Model: lm, Tok: tok}).Save(dir); err != nil {
		t.Fatal(err)
	}
	c := quickTrain()
	c.Init, c.Size = dir, "no such size: ignored"
	c.Policy.Dir, c.Policy.Prompts, c.Policy.HeldOut, c.Policy.Group, c.Policy.Sample.MaxTokens = dir, 3, 2, 2, 24
	var log bytes.Buffer
	p, rep, err := Train(context.Background(), c, "", &log)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Sequences <= 64 || rep.HeldOut.ByKind[KindPolicy].Steps == 0 || !strings.Contains(log.String(), "policy samples") {
		t.Errorf("policy samples were not used: %+v\n%s", rep, log.String())
	}
	if got := p.Model.(*model.Model).Config; got.HiddenSize != lm.Config.HiddenSize || got.NumLabels != 1 {
		t.Errorf("trained from the policy: config %+v", got)
	}
}

// TestPolicySamples: a policy's responses come back labelled by the task,
// for the prompts asked, the same for the same seed.
func TestPolicySamples(t *testing.T) {
	tok := mustBytes()
	lm, err := model.New(model.Tiny(tok.VocabSize()), 3)
	if err != nil {
		t.Fatal(err)
	}
	pol := &policy.Policy{Model: lm, Tok: tok}
	tk := mustTask(t, "arith")
	sc := DefaultTrain().Policy.Sample
	sc.MaxTokens, sc.Seed = 32, 5
	ctx := context.Background()
	a, err := PolicySamples(ctx, pol, tk, task.Test, 3, 2, sc)
	if err != nil {
		t.Fatal(err)
	}
	if len(a) == 0 {
		t.Fatal("no sample had a step")
	}
	prompts := map[string]task.Prompt{}
	for i := range 3 {
		p := tk.Prompt(task.Test, i)
		prompts[p.Text] = p
	}
	for _, ex := range a {
		p, ok := prompts[ex.Prompt]
		if ex.Kind != KindPolicy || !ok || len(ex.Steps) == 0 {
			t.Errorf("sample %+v", ex)
		}
		want := tk.(task.StepLabeler).Steps(p, ex.Response)
		if !slices.Equal(ex.Steps, want) {
			t.Errorf("steps %v, the task says %v", ex.Steps, want)
		}
	}
	b, err := PolicySamples(ctx, pol, tk, task.Test, 3, 2, sc)
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != len(b) || a[0].Response != b[0].Response {
		t.Error("the same seed gave different samples")
	}
	if _, err := PolicySamples(ctx, pol, mustTask(t, "ifeval"), task.Test, 1, 1, sc); err == nil {
		t.Error("a task without step labels gave samples")
	}
}

// TestLoadTrainConfig: a PRM folder's training settings come back from
// train.json over the defaults; a folder without one gives the defaults
// and ok false; a damaged one is an error naming the file.
func TestLoadTrainConfig(t *testing.T) {
	dir := t.TempDir()
	c, ok, err := LoadTrainConfig(dir)
	if err != nil || ok || !reflect.DeepEqual(c, DefaultTrain()) {
		t.Errorf("no train.json: %+v, %v, %v", c, ok, err)
	}
	path := filepath.Join(dir, TrainFile)
	if err := os.WriteFile(path, []byte(`{"config": {"seed": 7, "held_out": 12, "task_seed": 3}, "report": {}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	want := DefaultTrain()
	want.Seed, want.HeldOut, want.TaskSeed = 7, 12, 3
	if c, ok, err := LoadTrainConfig(dir); err != nil || !ok || !reflect.DeepEqual(c, want) {
		t.Errorf("train.json: %+v, %v, %v", c, ok, err)
	}
	os.WriteFile(path, []byte(`{"config": {"seed": "x"`), 0o644)
	if _, _, err := LoadTrainConfig(dir); err == nil || !strings.Contains(err.Error(), TrainFile) {
		t.Errorf("a damaged train.json: %v", err)
	}
}

// scriptedPolicy is a fake Generator: every response is the prompt's
// clean reference solution, and every call's settings are kept.
type scriptedPolicy struct {
	t     task.Task
	calls []sample.Config
}

func (s *scriptedPolicy) Generate(_ context.Context, prompts []string, group int, c sample.Config) ([]sample.Response, error) {
	s.calls = append(s.calls, c)
	cor := s.t.(task.StepCorrupter)
	var out []sample.Response
	for i, text := range prompts {
		var p task.Prompt
		for j := range 64 { // the prompt with this text among the first test prompts
			if q := s.t.Prompt(task.Test, j); q.Text == text {
				p = q
				break
			}
		}
		resp, _ := cor.Corrupt(rand.New(rand.NewPCG(1, 2)), p, 0)
		for range group {
			out = append(out, sample.Response{Prompt: i, Text: resp})
		}
	}
	return out, nil
}

// TestHeldOutWithFakePolicy: the held-out set is the synthetic one plus
// the policy's labelled samples, drawn with the run's seed mixed in; any
// Generator serves.
func TestHeldOutWithFakePolicy(t *testing.T) {
	tk, err := task.New("arith", task.Config{})
	if err != nil {
		t.Fatal(err)
	}
	c := DefaultTrain()
	c.HeldOut, c.Policy.HeldOut, c.Policy.Group, c.Seed = 4, 3, 2, 7
	pol := &scriptedPolicy{t: tk}
	held, err := HeldOut(context.Background(), c, tk, pol)
	if err != nil {
		t.Fatal(err)
	}
	synth, _ := Synthetic(tk, task.Test, 4, 7)
	if len(held) != len(synth)+6 {
		t.Fatalf("%d held-out responses, want %d synthetic and 6 policy samples", len(held), len(synth))
	}
	for i, ex := range held[len(synth):] {
		if ex.Kind != KindPolicy || len(ex.Steps) == 0 {
			t.Errorf("policy sample %d: kind %q, %d steps", i, ex.Kind, len(ex.Steps))
		}
	}
	if len(pol.calls) != 1 || pol.calls[0].Seed != 7^uint64(task.Test) {
		t.Errorf("generation calls %+v, want one with seed 7 ^ split", pol.calls)
	}
}
