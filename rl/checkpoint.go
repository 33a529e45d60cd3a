package rl

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/credo-rl/credo/model"
	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/run"
	"github.com/credo-rl/credo/tokenizer"
)

// A checkpoint is checkpoints/step-NNNNNN/ holding the policy (config.json,
// model.safetensors, tokenizer), optimizer.safetensors (AdamW moments
// "m.<param>" and "v.<param>") and state.json. Every random draw of a step
// is seeded from (Config.Seed, step), so the step and the seed are the
// whole RNG state: a resumed run samples and updates exactly as an
// uninterrupted one.

// checkpointState is state.json.
type checkpointState struct {
	Step    int    `json:"step"`    // completed training steps
	Updates int64  `json:"updates"` // applied optimizer updates (AdamW's bias-correction count)
	Seed    uint64 `json:"seed"`    // the run's seed: with Step, all its RNG state
}

func checkpointName(step int) string { return fmt.Sprintf("step-%06d", step) }

// saveCheckpoint writes the current state into a temporary folder and
// renames it into place, then keeps only the newest KeepCheckpoints.
func (t *Trainer) saveCheckpoint() error {
	root := filepath.Join(t.c.Out, "checkpoints")
	if err := os.MkdirAll(root, 0o755); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	final := filepath.Join(root, checkpointName(t.step))
	tmp, err := os.MkdirTemp(root, "."+checkpointName(t.step)+".tmp*")
	if err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	mom, vel := t.opt.OptimizerState()
	ts := map[string]model.Tensor{}
	for i, p := range t.policy.Model.Specs() {
		ts["m."+p.Name] = model.Tensor{Shape: p.Shape, Data: mom[i]}
		ts["v."+p.Name] = model.Tensor{Shape: p.Shape, Data: vel[i]}
	}
	err = errors.Join(
		t.policy.Model.Save(tmp),
		t.policy.Tok.Save(tmp),
		model.WriteSafetensors(filepath.Join(tmp, "optimizer.safetensors"), ts),
		run.WriteJSON(filepath.Join(tmp, "state.json"), checkpointState{Step: t.step, Updates: t.opt.Steps(), Seed: t.c.Seed}),
	)
	if err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("checkpoint step %d: %w", t.step, err)
	}
	if err := policy.ReplaceDir(tmp, final); err != nil {
		return fmt.Errorf("checkpoint step %d: %w", t.step, err)
	}
	return pruneCheckpoints(root, t.c.KeepCheckpoints)
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

// latestCheckpoint is the newest checkpoint folder of a run, or "" when it
// has none (a resume then starts from the beginning).
func latestCheckpoint(out string) (string, error) {
	steps, err := checkpointSteps(filepath.Join(out, "checkpoints"))
	if err != nil || len(steps) == 0 {
		return "", err
	}
	return filepath.Join(out, "checkpoints", checkpointName(steps[len(steps)-1])), nil
}

// loadCheckpoint restores the policy, the optimizer and the step.
func (t *Trainer) loadCheckpoint(dir string) error {
	var st checkpointState
	if err := run.ReadJSON(filepath.Join(dir, "state.json"), &st); err != nil {
		return fmt.Errorf("resume: %w", err)
	}
	if st.Seed != t.c.Seed {
		return fmt.Errorf("resume: the checkpoint was written with seed %d, the configuration has %d", st.Seed, t.c.Seed)
	}
	m, err := model.Load(dir)
	if err != nil {
		return fmt.Errorf("resume: %w", err)
	}
	tok, err := tokenizer.Load(dir)
	if err != nil {
		return fmt.Errorf("resume: %w", err)
	}
	t.policy = &policy.Policy{Model: m, Tok: tok}
	if t.opt, err = model.NewTrainer(m, t.c.Optimizer, t.loss); err != nil {
		return err
	}
	ts, err := model.ReadSafetensors(filepath.Join(dir, "optimizer.safetensors"))
	if err != nil {
		return fmt.Errorf("resume: %w", err)
	}
	var mom, vel [][]float32
	for _, p := range m.Specs() {
		a, ok1 := ts["m."+p.Name]
		b, ok2 := ts["v."+p.Name]
		if !ok1 || !ok2 {
			return fmt.Errorf("resume: optimizer state for %s is missing in %s", p.Name, dir)
		}
		mom, vel = append(mom, a.Data), append(vel, b.Data)
	}
	if err := t.opt.SetOptimizerState(mom, vel, st.Updates); err != nil {
		return fmt.Errorf("resume: %w", err)
	}
	t.step = st.Step
	return nil
}
