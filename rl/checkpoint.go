package rl

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/credo-rl/credo/ckpt"
	"github.com/credo-rl/credo/internal/settings"
	"github.com/credo-rl/credo/optim"
)

// A checkpoint is checkpoints/step-NNNNNN/ (NNNNNN completed steps) in
// package ckpt's one format. Every random draw of a step is seeded from
// (Config.Seed, step), so the step and the seed are the whole RNG state: a
// resumed run samples and updates exactly as an uninterrupted one.

// saveCheckpoint writes the current state (ckpt.Write: whole, or not at
// all, and never of non-finite weights or moments), then keeps only the
// newest KeepCheckpoints.
func (t *Trainer) saveCheckpoint() error {
	cfg, err := ckpt.ConfigBytes(t.c)
	if err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	mom, vel := t.opt.OptimizerState()
	err = ckpt.Write(ckpt.Dir(t.c.Out, t.step), ckpt.Checkpoint{
		Policy: t.policy, Mom: mom, Vel: vel, Config: cfg,
		State: ckpt.State{Step: t.step, Updates: t.opt.Steps(), Seed: t.c.Seed},
	})
	if err != nil {
		return err
	}
	return ckpt.Prune(filepath.Join(t.c.Out, "checkpoints"), t.c.KeepCheckpoints)
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
	ck, err := ckpt.Read(dir, ckpt.ReadOptions{Log: t.log, AcceptMissingChecksums: t.acceptNoChecksums, CheckState: t.checkState})
	if err != nil {
		return err
	}
	t.accepted = ck.Accepted
	t.policy = ck.Policy
	if t.opt, err = optim.NewUpdater(ck.Policy.Model, t.c.Optimizer, t.loss); err != nil {
		return err
	}
	if err := t.opt.SetMemory(t.c.Memory); err != nil {
		return err
	}
	if err := t.opt.SetOptimizerState(ck.Mom, ck.Vel, ck.State.Updates); err != nil {
		return err
	}
	t.step = ck.State.Step
	return nil
}

// checkState holds state.json against what it must be: the step in the
// folder's name, an update count a run of that many steps can have, the
// run's seed.
func (t *Trainer) checkState(dir string, st ckpt.State) error {
	if want := filepath.Base(dir); ckpt.Name(st.Step) != want {
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
