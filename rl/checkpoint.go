package rl

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/credo-rl/credo/internal/atomicfile"
	"github.com/credo-rl/credo/internal/settings"
	"github.com/credo-rl/credo/model/hf"
	"github.com/credo-rl/credo/optim"
	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/run"
	"github.com/credo-rl/credo/tokenizer"
)

// A checkpoint is checkpoints/step-NNNNNN/ (NNNNNN completed steps)
// holding the policy (config.json, model.safetensors, tokenizer),
// optimizer.safetensors (AdamW moments "m.<param>" and "v.<param>"),
// state.json, and checksums.json (the SHA-256 of every other file, checked
// on resume). Every random draw of a step is seeded from (Config.Seed,
// step), so the step and the seed are the whole RNG state: a resumed run
// samples and updates exactly as an uninterrupted one.

// checkpointState is state.json.
type checkpointState struct {
	Step    int    `json:"step"`    // completed training steps
	Updates int64  `json:"updates"` // applied optimizer updates (AdamW's bias-correction count)
	Seed    uint64 `json:"seed"`    // the run's seed: with Step, all its RNG state
	// ConfigSHA256 is the SHA-256 of run-config.json, the run's config.json
	// when the checkpoint was written (configcheck.go).
	ConfigSHA256 string `json:"config_sha256,omitempty"`
}

func checkpointName(step int) string { return fmt.Sprintf("step-%06d", step) }

// checksumsFile lists the SHA-256 of a checkpoint's other files.
const checksumsFile = "checksums.json"

// saveCheckpoint writes the current state into a temporary folder and
// renames it into place, then keeps only the newest KeepCheckpoints. It
// refuses non-finite weights or moments (the update guard never lets them
// in; a checkpoint of them would be worse than none).
func (t *Trainer) saveCheckpoint() error {
	root := filepath.Join(t.c.Out, "checkpoints")
	if err := os.MkdirAll(root, atomicfile.DirMode); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	weights := t.policy.Model.ParamData()
	mom, vel := t.opt.OptimizerState()
	specs := t.policy.Model.Specs()
	for i, p := range specs {
		if bad := firstNonFinite(weights[i], mom[i], vel[i]); bad != "" {
			return fmt.Errorf("checkpoint step %d: %s of %s is not finite: not saved", t.step, bad, p.Name)
		}
	}
	final := filepath.Join(root, checkpointName(t.step))
	tmp, err := atomicfile.MkdirTemp(root, "."+checkpointName(t.step)+".tmp*")
	if err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	cfg, cfgSum, err := t.runConfigBytes()
	if err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("checkpoint: %w", err)
	}
	err = errors.Join(
		hf.SaveAs(t.policy.Model, tmp, "F32"), // float32 master weights: a resume continues bit for bit, whatever the folder dtype
		t.policy.Tok.Save(tmp),
		WriteOptimizerState(filepath.Join(tmp, OptimizerFile), specs, mom, vel),
		run.WriteFile(filepath.Join(tmp, RunConfigFile), cfg),
		run.WriteJSON(filepath.Join(tmp, "state.json"), checkpointState{Step: t.step, Updates: t.opt.Steps(), Seed: t.c.Seed, ConfigSHA256: cfgSum}),
	)
	if err == nil {
		err = writeChecksums(tmp)
	}
	if err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("checkpoint step %d: %w", t.step, err)
	}
	if err := policy.ReplaceDir(tmp, final); err != nil {
		return fmt.Errorf("checkpoint step %d: %w", t.step, err)
	}
	return pruneCheckpoints(root, t.c.KeepCheckpoints)
}

// firstNonFinite names the first array (weight, first moment, second
// moment) holding a NaN or an infinity, or "" when all are finite.
func firstNonFinite(weight, mom, vel []float32) string {
	for j, xs := range [][]float32{weight, mom, vel} {
		for _, x := range xs {
			if f := float64(x); math.IsNaN(f) || math.IsInf(f, 0) {
				return [...]string{"a weight", "a first moment", "a second moment"}[j]
			}
		}
	}
	return ""
}

// writeChecksums records the SHA-256 of every file in dir in checksums.json.
func writeChecksums(dir string) error {
	sums, err := hashFiles(dir)
	if err != nil {
		return err
	}
	return run.WriteJSON(filepath.Join(dir, checksumsFile), sums)
}

// hashFiles is the hex SHA-256 of each regular file in dir but checksums.json.
func hashFiles(dir string) (map[string]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	sums := map[string]string{}
	for _, e := range entries {
		if !e.Type().IsRegular() || e.Name() == checksumsFile {
			continue
		}
		f, err := os.Open(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		h := sha256.New()
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("hash %s: %w", e.Name(), err)
		}
		sums[e.Name()] = hex.EncodeToString(h.Sum(nil))
	}
	return sums, nil
}

// verifyChecksums checks a checkpoint's files against checksums.json. A
// checkpoint without one (written before checksums existed) is accepted
// with a warning; a missing, changed or unlisted file is an error.
func verifyChecksums(dir string, log io.Writer) error {
	var want map[string]string
	if err := run.ReadJSON(filepath.Join(dir, checksumsFile), &want); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			fmt.Fprintf(log, "warning: %s has no %s (written by an older credo): its files cannot be verified\n", dir, checksumsFile)
			return nil
		}
		return err
	}
	got, err := hashFiles(dir)
	if err != nil {
		return err
	}
	var bad []string
	for name, sum := range want {
		switch g, ok := got[name]; {
		case !ok:
			bad = append(bad, name+" is missing")
		case g != sum:
			bad = append(bad, name+" has changed since it was written")
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			bad = append(bad, name+" was not part of the checkpoint")
		}
	}
	if len(bad) > 0 {
		sort.Strings(bad)
		return fmt.Errorf("%s", strings.Join(bad, "; "))
	}
	return nil
}

// LatestStep is the step of the newest complete checkpoint of the run in
// dir, 0 when it has none.
func LatestStep(dir string) (int, error) {
	st, err := checkpointSteps(filepath.Join(dir, "checkpoints"))
	if err != nil || len(st) == 0 {
		return 0, err
	}
	return st[len(st)-1], nil
}

// checkpointSteps lists the complete checkpoints under root, oldest first.
func checkpointSteps(root string) ([]int, error) {
	entries, err := os.ReadDir(root)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("checkpoints: %w", err)
	}
	var steps []int
	for _, e := range entries {
		n, ok := strings.CutPrefix(e.Name(), "step-")
		if !e.IsDir() || !ok {
			continue // temporary folders start with a dot
		}
		if s, err := strconv.Atoi(n); err == nil {
			if _, err := os.Stat(filepath.Join(root, e.Name(), "state.json")); err == nil {
				steps = append(steps, s)
			}
		}
	}
	sort.Ints(steps)
	return steps, nil
}

func pruneCheckpoints(root string, keep int) error {
	steps, err := checkpointSteps(root)
	if err != nil {
		return err
	}
	for len(steps) > keep {
		if err := os.RemoveAll(filepath.Join(root, checkpointName(steps[0]))); err != nil {
			return fmt.Errorf("prune checkpoints: %w", err)
		}
		steps = steps[1:]
	}
	return nil
}

// CheckpointDir is the folder of the checkpoint of the run in dir after
// step completed steps.
func CheckpointDir(dir string, step int) string {
	return filepath.Join(dir, "checkpoints", checkpointName(step))
}

// latestCheckpoint is the newest checkpoint folder of a run, or "" when it
// has none (a resume then starts from the beginning).
func latestCheckpoint(out string) (string, error) {
	steps, err := checkpointSteps(filepath.Join(out, "checkpoints"))
	if err != nil || len(steps) == 0 {
		return "", err
	}
	return filepath.Join(out, "checkpoints", checkpointName(steps[len(steps)-1])), nil
}

// removeStrayCheckpoints deletes what a run killed during a checkpoint
// write leaves in root: .step-*.tmp* folders (a write not yet renamed into
// place) and step-*.old ones (a replaced checkpoint not yet removed).
func removeStrayCheckpoints(root string, log io.Writer) error {
	entries, err := os.ReadDir(root)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("checkpoints: %w", err)
	}
	for _, e := range entries {
		n := e.Name()
		tmp := strings.HasPrefix(n, ".step-") && strings.Contains(n, ".tmp")
		old := strings.HasPrefix(n, "step-") && strings.HasSuffix(n, ".old")
		if !tmp && !old {
			continue
		}
		if err := os.RemoveAll(filepath.Join(root, n)); err != nil {
			return fmt.Errorf("remove the unfinished checkpoint %s: %w", n, err)
		}
		fmt.Fprintf(log, "removed %s, left by a checkpoint write that did not finish\n", filepath.Join(root, n))
	}
	return nil
}

// loadCheckpoint restores the policy, the optimizer and the step after
// checking the checkpoint: its files against their checksums, state.json
// against the folder's step and the run's settings, and every weight and
// moment for finiteness.
func (t *Trainer) loadCheckpoint(dir string) error {
	err := t.readCheckpoint(dir)
	var past pastStepsError
	switch {
	case errors.As(err, &past):
		// A healthy checkpoint past a lowered --steps: moving it out, as
		// the damaged case says, would discard the run's work (issue 49).
		return &settings.Error{Err: settings.Problems{{Key: "steps", Msg: past.Error()}}}
	case err != nil:
		return fmt.Errorf("resume from %s: %w\n(the checkpoint is damaged: move it out of checkpoints/ to resume from the one before, if any)", dir, err)
	}
	return nil
}

// pastStepsError is a checkpoint whose step is beyond the resumed run's
// steps: the run went further than the --steps a resume asks for.
type pastStepsError struct{ step, steps int }

func (e pastStepsError) Error() string {
	return fmt.Sprintf("the run is at step %d, past --steps %d, which counts steps from the run's start: pass --steps %d or more to continue it (its checkpoint is fine)", e.step, e.steps, e.step+1)
}

func (t *Trainer) readCheckpoint(dir string) error {
	if err := t.checksumsPresent(dir); err != nil {
		return err
	}
	if err := verifyChecksums(dir, t.log); err != nil {
		return err
	}
	var st checkpointState
	if err := run.ReadJSON(filepath.Join(dir, "state.json"), &st); err != nil {
		return err
	}
	if err := t.checkState(dir, st); err != nil {
		return fmt.Errorf("state.json: %w", err)
	}
	m, err := hf.Load(dir)
	if err != nil {
		return err
	}
	tok, err := tokenizer.Load(dir)
	if err != nil {
		return err
	}
	t.policy = &policy.Policy{Model: m, Tok: tok}
	if t.opt, err = optim.NewUpdater(m, t.c.Optimizer, t.loss); err != nil {
		return err
	}
	if err := t.opt.SetMemory(t.c.Memory); err != nil {
		return err
	}
	mom, vel, err := ReadOptimizerState(filepath.Join(dir, OptimizerFile), m.Specs())
	if err != nil {
		return err
	}
	weights := m.ParamData()
	for i, p := range m.Specs() {
		if bad := firstNonFinite(weights[i], mom[i], vel[i]); bad != "" {
			return fmt.Errorf("%s of %s is not finite", bad, p.Name)
		}
	}
	if err := t.opt.SetOptimizerState(mom, vel, st.Updates); err != nil {
		return err
	}
	t.step = st.Step
	return nil
}

// checkState holds state.json against what it must be: the step in the
// folder's name, an update count a run of that many steps can have, the
// run's seed.
func (t *Trainer) checkState(dir string, st checkpointState) error {
	if want := filepath.Base(dir); checkpointName(st.Step) != want {
		return fmt.Errorf("step %d, but the folder is %s", st.Step, want)
	}
	if st.Step > t.c.Steps {
		return pastStepsError{step: st.Step, steps: t.c.Steps}
	}
	if st.Step < 1 {
		return fmt.Errorf("step %d is outside the run's 1..%d", st.Step, t.c.Steps)
	}
	if maxUpdates := int64(st.Step) * int64(t.c.Updates); st.Updates < 0 || st.Updates > maxUpdates {
		return fmt.Errorf("updates %d: %d steps of %d updates apply between 0 and %d", st.Updates, st.Step, t.c.Updates, maxUpdates)
	}
	if st.Seed != t.c.Seed {
		return fmt.Errorf("seed %d, but the run's seed is %d", st.Seed, t.c.Seed)
	}
	return nil
}
