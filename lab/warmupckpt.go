package lab

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/credo-rl/credo/internal/atomicfile"
	"github.com/credo-rl/credo/model/hf"
	"github.com/credo-rl/credo/optim"
	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/rl"
	"github.com/credo-rl/credo/run"
	"github.com/credo-rl/credo/tokenizer"
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

// warmupState is a warm-up checkpoint's state.json.
type warmupState struct {
	Step    int   `json:"step"`    // completed steps
	Updates int64 `json:"updates"` // applied AdamW updates
	// HeldOutBefore is the report's accuracy of the initial policy, which
	// a resumed warm-up can no longer measure.
	HeldOutBefore float64 `json:"held_out_before"`
	Seconds       float64 `json:"seconds"` // training time so far
}

// warmupCheckpoint is what a checkpoint restores.
type warmupCheckpoint struct {
	state warmupState
	p     *policy.Policy
	mom   [][]float32
	vel   [][]float32
}

// Config file and state file of a warm-up checkpoint.
const (
	warmupConfigFile = "warmup-config.json"
	warmupStateFile  = "state.json"
)

// saveWarmupCheckpoint writes the policy in float32, its AdamW moments, the
// state and c into dir whole (a temporary sibling renamed into place).
func saveWarmupCheckpoint(dir string, c WarmupConfig, p *policy.Policy, u *optim.Updater, st warmupState) error {
	parent := filepath.Dir(filepath.Clean(dir))
	if err := os.MkdirAll(parent, atomicfile.DirMode); err != nil {
		return fmt.Errorf("warm-up checkpoint: %w", err)
	}
	tmp, err := atomicfile.MkdirTemp(parent, "."+filepath.Base(dir)+".tmp*")
	if err != nil {
		return fmt.Errorf("warm-up checkpoint: %w", err)
	}
	mom, vel := u.OptimizerState()
	err = errors.Join(
		hf.SaveAs(p.Model, tmp, "F32"), // master weights: a resume continues bit for bit
		p.Tok.Save(tmp),
		rl.WriteOptimizerState(filepath.Join(tmp, rl.OptimizerFile), p.Model.Specs(), mom, vel),
		run.WriteJSON(filepath.Join(tmp, warmupConfigFile), c),
		run.WriteJSON(filepath.Join(tmp, warmupStateFile), st),
	)
	if err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("warm-up checkpoint at step %d: %w", st.Step, err)
	}
	return policy.ReplaceDir(tmp, dir)
}

// loadWarmupCheckpoint reads the checkpoint in dir; ok is false when there
// is none. One made with other settings is an error naming them.
func loadWarmupCheckpoint(dir string, c WarmupConfig) (ck warmupCheckpoint, ok bool, err error) {
	var saved WarmupConfig
	switch err := run.ReadJSON(filepath.Join(dir, warmupConfigFile), &saved); {
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
	if err := run.ReadJSON(filepath.Join(dir, warmupStateFile), &ck.state); err != nil {
		return ck, false, fmt.Errorf("warm-up checkpoint %s: %w", dir, err)
	}
	m, err := hf.Load(dir)
	if err != nil {
		return ck, false, fmt.Errorf("warm-up checkpoint %s: %w", dir, err)
	}
	tok, err := tokenizer.Load(dir)
	if err != nil {
		return ck, false, fmt.Errorf("warm-up checkpoint %s: %w", dir, err)
	}
	if ck.mom, ck.vel, err = rl.ReadOptimizerState(filepath.Join(dir, rl.OptimizerFile), m.Specs()); err != nil {
		return ck, false, fmt.Errorf("warm-up checkpoint %s: %w", dir, err)
	}
	ck.p = &policy.Policy{Model: m, Tok: tok}
	return ck, true, nil
}
