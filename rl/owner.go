package rl

import (
	"github.com/credo-rl/credo/internal/lock"
)

// A run directory has one owner: New takes its lock (a resume before it
// reads the checkpoint, a fresh run in the temporary folder that becomes
// the directory), Run holds it while it trains and lets it go when it
// returns, and Close lets it go too. The lock dies with the process, so a
// killed run never blocks the next resume.

// relock takes the run directory's lock again for a Run after the first.
func (t *Trainer) relock() error {
	if t.lk != nil {
		return nil
	}
	lk, err := lock.Acquire(t.c.Out)
	if err != nil {
		return err
	}
	t.lk = lk
	return nil
}

// unlock lets the run directory go.
func (t *Trainer) unlock() error {
	err := t.lk.Release()
	t.lk = nil
	return err
}

// unlockOnError lets the run directory go when New fails.
func (t *Trainer) unlockOnError(err *error) {
	if *err != nil {
		t.unlock()
	}
}
