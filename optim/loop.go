package optim

import (
	"context"
	"io"

	"github.com/credo-rl/credo/internal/progress"
)

// MaxSkippedSteps is how many steps in a row may apply no update (every
// update had a non-finite loss, gradient, weight or moment) before a
// training loop stops with an error: one such step can be a bad batch,
// three in a row mean the settings (a learning rate or decay far too
// large) or the weights are broken, and training on would only waste time.
const MaxSkippedSteps = 3

// Outcome is what one step of a Loop reports.
type Outcome struct {
	// Skipped is a step that applied no update (the update guard refused a
	// non-finite loss, gradient, weight or moment each time).
	Skipped bool
	// Summary is the progress line's text for the step.
	Summary string
}

// Loop is the one driver of the trainers' loops (rl's policy, lab's
// warm-up, prm's scorer): it takes steps First+1 … Steps, stops after
// MaxSkippedSteps skipped steps in a row, checkpoints on a cadence,
// reports progress and turns a cancelled context into a checkpoint of the
// last completed step. The step itself (an Updater.Step, or a whole
// rollout, credit and update) is the caller's.
type Loop struct {
	First, Steps int // steps already done (a resume's), and all of them

	// CheckpointEvery saves after every that many steps (0: none on a
	// cadence); CheckpointLast saves after the last step too. Save nil
	// keeps no checkpoint.
	CheckpointEvery int
	CheckpointLast  bool
	Save            func(done int) error

	// Stuck is the error to stop with when MaxSkippedSteps steps in a row
	// were skipped (done: the steps done, inARow: how many were skipped);
	// nil never stops.
	Stuck func(done, inARow int) error
	// Check runs after each step, before its checkpoint: a trainer's own
	// health (rl: a reward whose verdicts keep failing); its error stops
	// the loop as it is.
	Check func(done int) error

	// Interrupt is what a cancelled context returns, after done steps: a
	// trainer saves the last completed step and says where it is. nil
	// returns the context's error.
	Interrupt func(ctx context.Context, done int) error

	// Report is told of each finished step; nil draws a progress bar named
	// Name on Log (io.Discard when nil).
	Report func(done int, summary string)
	Name   string
	Log    io.Writer
}

// Run takes the steps; step(ctx, done) takes the step after done. A
// cancelled context before a step or after the last, and a step that
// fails while it is cancelled, is an interruption (Loop.Interrupt); any
// other error stops the loop as it is. A loop with no step left to take
// returns nil at once.
func (l Loop) Run(ctx context.Context, step func(ctx context.Context, done int) (Outcome, error)) error {
	report := l.Report
	if report == nil {
		w := l.Log
		if w == nil {
			w = io.Discard
		}
		bar := progress.New(w, l.Name, l.First, l.Steps)
		defer bar.Done()
		report = bar.Update
	}
	done, inARow := l.First, 0
	if done >= l.Steps {
		return nil
	}
	for {
		if ctx.Err() != nil {
			return l.interrupt(ctx, done)
		}
		out, err := step(ctx, done)
		if err != nil {
			if ctx.Err() != nil {
				return l.interrupt(ctx, done)
			}
			return err
		}
		done++
		if inARow++; !out.Skipped {
			inARow = 0
		}
		if l.Stuck != nil && inARow >= MaxSkippedSteps {
			return l.Stuck(done, inARow)
		}
		if l.Check != nil {
			if err := l.Check(done); err != nil {
				return err
			}
		}
		if l.Save != nil && (l.CheckpointEvery > 0 && done%l.CheckpointEvery == 0 && done < l.Steps || l.CheckpointLast && done == l.Steps) {
			if err := l.Save(done); err != nil {
				return err
			}
		}
		report(done, out.Summary)
		if done >= l.Steps {
			if ctx.Err() != nil {
				return l.interrupt(ctx, done)
			}
			return nil
		}
	}
}

func (l Loop) interrupt(ctx context.Context, done int) error {
	if l.Interrupt == nil {
		return ctx.Err()
	}
	return l.Interrupt(ctx, done)
}
