package rl

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/credo-rl/credo/internal/lock"
)

// TestOneOwnerPerRun: while a Trainer has a run directory (from New until
// Run returns or Close), a resume of it fails with a *lock.BusyError
// naming this process; after Close it resumes (issue 26: two `train --resume` on one folder both
// exited 0 and left config.json at 8 steps with checkpoints at 10 and 12).
func TestOneOwnerPerRun(t *testing.T) {
	c := microConfig(t, "toolcall", "gdpo")
	c.Steps, c.EvalPrompts, c.CheckpointEvery = 1, 0, 1
	first := newTrainer(t, c, false)
	ctx := context.Background()
	_, err := New(ctx, c, true, io.Discard)
	var busy *lock.BusyError
	if !errors.As(err, &busy) || busy.Owner.PID != os.Getpid() {
		t.Errorf("a resume beside a live Trainer: %v", err)
	}
	if err := first.Run(ctx); err != nil {
		t.Fatal(err)
	}
	longer := c
	longer.Steps = 2
	second := newTrainer(t, longer, true)
	if _, err := New(ctx, longer, true, io.Discard); err == nil {
		t.Error("a second resume beside a resumed Trainer started")
	}
	if err := second.Close(); err != nil {
		t.Fatal(err)
	}
	third := newTrainer(t, longer, true)
	defer third.Close()
	if third.Step() != 1 {
		t.Errorf("resumed at step %d, want 1", third.Step())
	}
	if _, err := os.Stat(filepath.Join(c.Out, lock.File)); err != nil {
		t.Errorf("the live Trainer's lock file: %v", err)
	}
}
