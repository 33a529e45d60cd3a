package lab

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/credo-rl/credo/ckpt"
	"github.com/credo-rl/credo/optim"
	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/run"
)

// WarmupOption changes how WarmUp runs, never what it computes.
type WarmupOption func(*warmupRun)

// warmupRun is how one WarmUp runs: where it keeps its checkpoint.
type warmupRun struct {
	dir   string // the checkpoint folder ("" keeps none)
	every int    // steps between checkpoints (0: only when interrupted)
}

// Checkpoints makes WarmUp keep its state in dir: every `every` steps and
// when interrupted, and WarmUp continues from a checkpoint found there,
// made with the same settings, bit for bit as if never stopped (issue 27:
// Ctrl-C lost a long warm-up). The batches are drawn again from the seed
// up to the checkpoint's step, so the checkpoint holds no random state.
func Checkpoints(dir string, every int) WarmupOption {
	return func(r *warmupRun) { r.dir, r.every = dir, every }
}

// warmupState is a warm-up checkpoint's state.json: the trainers' one
// checkpoint state, whose HeldOutBefore and Seconds only the warm-up sets.
type warmupState = ckpt.State

// warmupCheckpoint is what a checkpoint restores.
type warmupCheckpoint struct {
	state warmupState
	p     *policy.Policy
	mom   [][]float32
	vel   [][]float32
}

// legacyConfigFile is where warm-up checkpoints written before the
// trainers shared package ckpt's format kept their settings (instead of
// ckpt.RunConfigFile, and without checksums.json): they still resume.
const legacyConfigFile = "warmup-config.json"

// saveWarmupCheckpoint writes the policy in float32, its AdamW moments, the
// state and c into dir whole, in package ckpt's format.
func saveWarmupCheckpoint(dir string, c WarmupConfig, p *policy.Policy, u *optim.Updater, st warmupState) error {
	cfg, err := ckpt.ConfigBytes(c)
	if err != nil {
		return fmt.Errorf("warm-up checkpoint: %w", err)
	}
	st.Seed = c.Seed
	mom, vel := u.OptimizerState()
	if err := ckpt.Write(dir, ckpt.Checkpoint{Policy: p, Mom: mom, Vel: vel, State: st, Config: cfg}); err != nil {
		return fmt.Errorf("warm-up %w", err)
	}
	return nil
}

// loadWarmupCheckpoint reads the checkpoint in dir; ok is false when there
// is none. One made with other settings is an error naming them.
func loadWarmupCheckpoint(dir string, c WarmupConfig) (ck warmupCheckpoint, ok bool, err error) {
	// An older checkpoint kept its settings in legacyConfigFile.
	var saved WarmupConfig
	err = run.ReadJSON(filepath.Join(dir, ckpt.RunConfigFile), &saved)
	if errors.Is(err, os.ErrNotExist) {
		err = run.ReadJSON(filepath.Join(dir, legacyConfigFile), &saved)
	}
	switch {
	case errors.Is(err, os.ErrNotExist):
		return ck, false, nil
	case err != nil:
		return ck, false, fmt.Errorf("warm-up checkpoint %s: %w", dir, err)
	}
	changes, err := run.Diff(saved, c)
	if err != nil {
		return ck, false, err
	}
	if len(changes) > 0 {
		return ck, false, fmt.Errorf("the warm-up checkpoint in %s was made with other settings (%v): run with those, or start over", dir, changes)
	}
	got, err := ckpt.Read(dir, ckpt.ReadOptions{Log: io.Discard})
	if err != nil {
		return ck, false, fmt.Errorf("warm-up checkpoint %s: %w", dir, err)
	}
	return warmupCheckpoint{state: got.State, p: got.Policy, mom: got.Mom, vel: got.Vel}, true, nil
}
