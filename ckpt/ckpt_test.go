package ckpt

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/credo-rl/credo/model"
	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/run"
	"github.com/credo-rl/credo/tokenizer"
)

// tiny is a small policy and moments of its shape (m = 0.5, v = 0.25).
func tiny(t *testing.T) Checkpoint {
	t.Helper()
	tok, err := tokenizer.NewBytes()
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.New(model.Tiny(tok.VocabSize()), 1)
	if err != nil {
		t.Fatal(err)
	}
	var mom, vel [][]float32
	for _, w := range m.ParamData() {
		a, b := make([]float32, len(w)), make([]float32, len(w))
		for i := range a {
			a[i], b[i] = 0.5, 0.25
		}
		mom, vel = append(mom, a), append(vel, b)
	}
	return Checkpoint{Policy: &policy.Policy{Model: m, Tok: tok}, Mom: mom, Vel: vel,
		State: State{Step: 3, Updates: 3, Seed: 7}, Config: []byte("{\"seed\": 7}\n")}
}

// TestWriteRead: a checkpoint reads back as written (weights, moments,
// state, the pinned configuration), in the one format's files.
func TestWriteRead(t *testing.T) {
	ck := tiny(t)
	dir := Dir(t.TempDir(), 3)
	if err := Write(dir, ck); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{StateFile, RunConfigFile, OptimizerFile, ChecksumsFile, "model.safetensors"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	got, err := Read(dir, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got.State.Step != 3 || got.State.Updates != 3 || got.State.Seed != 7 || got.State.ConfigSHA256 == "" {
		t.Errorf("state %+v", got.State)
	}
	if !bytes.Equal(got.Config, ck.Config) {
		t.Errorf("config %q, want %q", got.Config, ck.Config)
	}
	a, b := ck.Policy.Model.ParamData(), got.Policy.Model.ParamData()
	for i := range a {
		if !slices.Equal(a[i], b[i]) || !slices.Equal(ck.Mom[i], got.Mom[i]) || !slices.Equal(ck.Vel[i], got.Vel[i]) {
			t.Fatalf("parameter %d differs after the round trip", i)
		}
	}
}

// TestReadRefuses: a damaged checkpoint is an error that says what is
// wrong; one a trainer's CheckState refuses too.
func TestReadRefuses(t *testing.T) {
	for _, tc := range []struct {
		name   string
		damage func(dir string) error
		opts   ReadOptions
		want   string
	}{
		{"a changed file", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, OptimizerFile), []byte("x"), 0o644)
		}, ReadOptions{}, "optimizer.safetensors has changed"},
		{"an added file", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "extra"), nil, 0o644)
		}, ReadOptions{}, "extra was not part of the checkpoint"},
		{"checksums removed from a pinned checkpoint", func(dir string) error {
			return os.Remove(filepath.Join(dir, ChecksumsFile))
		}, ReadOptions{}, "--accept-missing-checksums"},
		{"state refused", func(string) error { return nil },
			ReadOptions{CheckState: func(string, State) error { return os.ErrInvalid }}, "state.json: invalid argument"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := Dir(t.TempDir(), 3)
			if err := Write(dir, tiny(t)); err != nil {
				t.Fatal(err)
			}
			if err := tc.damage(dir); err != nil {
				t.Fatal(err)
			}
			if _, err := Read(dir, tc.opts); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestMissingChecksumsAccepted: told to, Read takes a pinned checkpoint
// whose checksums.json is gone, and says what it accepted.
func TestMissingChecksumsAccepted(t *testing.T) {
	dir := Dir(t.TempDir(), 3)
	if err := Write(dir, tiny(t)); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, ChecksumsFile))
	var log strings.Builder
	got, err := Read(dir, ReadOptions{Log: &log, AcceptMissingChecksums: true})
	if err != nil || !strings.Contains(got.Accepted, "unverified") || !strings.Contains(log.String(), "warning") {
		t.Errorf("accepted %q, log %q, %v", got.Accepted, log.String(), err)
	}
}

// TestWriteRefusesNonFinite: a NaN moment is never saved, and nothing is
// left behind.
func TestWriteRefusesNonFinite(t *testing.T) {
	ck := tiny(t)
	ck.Vel[0][0] = float32(math.NaN())
	root := t.TempDir()
	err := Write(filepath.Join(root, "c"), ck)
	if err == nil || !strings.Contains(err.Error(), "a second moment") {
		t.Fatalf("error %v", err)
	}
	if entries, _ := os.ReadDir(root); len(entries) != 0 {
		t.Errorf("left %v behind", entries)
	}
}

// TestSteps: only complete checkpoints count, Prune keeps the newest and
// RemoveStray removes a killed write's folders.
func TestSteps(t *testing.T) {
	out := t.TempDir()
	root := filepath.Join(out, "checkpoints")
	for _, name := range []string{Name(1), Name(2), Name(10), ".step-000011.tmp123", "step-000002.old"} {
		os.MkdirAll(filepath.Join(root, name), 0o755)
	}
	for _, s := range []int{1, 2, 10} {
		run.WriteJSON(filepath.Join(Dir(out, s), StateFile), State{Step: s})
	}
	os.MkdirAll(filepath.Join(root, Name(12)), 0o755) // no state.json: incomplete
	if got, _ := Steps(root); !slices.Equal(got, []int{1, 2, 10}) {
		t.Errorf("steps %v", got)
	}
	if got, _ := LatestStep(out); got != 10 {
		t.Errorf("latest step %d", got)
	}
	if got, _ := Latest(out); got != Dir(out, 10) {
		t.Errorf("latest %s", got)
	}
	if err := Prune(root, 2); err != nil {
		t.Fatal(err)
	}
	if got, _ := Steps(root); !slices.Equal(got, []int{2, 10}) {
		t.Errorf("after pruning to 2: %v", got)
	}
	var log strings.Builder
	if err := RemoveStray(root, &log); err != nil {
		t.Fatal(err)
	}
	for _, gone := range []string{".step-000011.tmp123", "step-000002.old"} {
		if _, err := os.Stat(filepath.Join(root, gone)); err == nil || !strings.Contains(log.String(), gone) {
			t.Errorf("%s not removed (log %q)", gone, log.String())
		}
	}
}

// TestDiff: settings a resume may change are changes, others refused;
// nested keys are dotted, and whole keys compared whole.
func TestDiff(t *testing.T) {
	type opt struct {
		Beta float64 `json:"beta"`
	}
	type cfg struct {
		Steps   int                `json:"steps"`
		Seed    int                `json:"seed"`
		Opt     opt                `json:"optimizer"`
		Weights map[string]float64 `json:"reward_weights"`
	}
	saved := cfg{Steps: 3, Seed: 1, Opt: opt{0.9}, Weights: map[string]float64{"a": 1}}
	for _, tc := range []struct {
		name            string
		now             cfg
		changes, refuse []string
	}{
		{"same", saved, nil, nil},
		{"steps", cfg{Steps: 5, Seed: 1, Opt: opt{0.9}, Weights: map[string]float64{"a": 1}}, []string{"steps"}, nil},
		{"nested", cfg{Steps: 3, Seed: 1, Opt: opt{0.8}, Weights: map[string]float64{"a": 1}}, nil, []string{"optimizer.beta"}},
		{"whole", cfg{Steps: 3, Seed: 2, Opt: opt{0.9}, Weights: map[string]float64{"a": 2}}, nil, []string{"reward_weights", "seed"}},
	} {
		changes, refused := Diff(saved, tc.now, []string{"steps"}, "reward_weights")
		var ck, rk []string
		for _, c := range changes {
			ck = append(ck, c.Key)
		}
		for _, p := range refused {
			rk = append(rk, p.Key)
		}
		if !slices.Equal(ck, tc.changes) || !slices.Equal(rk, tc.refuse) {
			t.Errorf("%s: changes %v refused %v, want %v and %v", tc.name, ck, rk, tc.changes, tc.refuse)
		}
	}
}
