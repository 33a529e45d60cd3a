package optim_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/credo-rl/credo/optim"
)

// TestLoop: the driver takes the steps left, saves on its cadence (and
// after the last when asked), stops after MaxSkippedSteps skipped steps
// in a row, stops at a Check's error, and turns a cancelled context into
// an interruption after the last completed step.
func TestLoop(t *testing.T) {
	for _, tc := range []struct {
		name          string
		first, steps  int
		every         int
		last          bool
		skip          []bool // per step taken, whether it was skipped
		cancelAt      int    // cancel the context during this step (1-based; 0 never)
		failAt        int    // the step fails (1-based; 0 never)
		checkAt       int    // Check fails after this many steps (0 never)
		wantSteps     []int  // the steps taken (0-based done counts passed to step)
		wantSaves     []int
		wantErr       string
		wantInterrupt int // the done count Interrupt got (-1: not called)
	}{
		{name: "all", steps: 5, every: 2, wantSteps: []int{0, 1, 2, 3, 4}, wantSaves: []int{2, 4}, wantInterrupt: -1},
		{name: "last saved", steps: 4, every: 2, last: true, wantSteps: []int{0, 1, 2, 3}, wantSaves: []int{2, 4}, wantInterrupt: -1},
		{name: "resumed", first: 3, steps: 5, every: 1, wantSteps: []int{3, 4}, wantSaves: []int{4}, wantInterrupt: -1},
		{name: "done already", first: 5, steps: 5, wantInterrupt: -1},
		{name: "stuck", steps: 9, skip: []bool{true, false, true, true, true, true}, wantSteps: []int{0, 1, 2, 3, 4}, wantErr: "stuck at 5 after 3", wantInterrupt: -1},
		{name: "check", steps: 9, checkAt: 2, wantSteps: []int{0, 1}, wantErr: "check at 2", wantInterrupt: -1},
		{name: "failed", steps: 9, failAt: 3, wantSteps: []int{0, 1, 2}, wantErr: "step failed", wantInterrupt: -1},
		{name: "cancelled between steps", steps: 9, cancelAt: 2, wantSteps: []int{0, 1}, wantErr: "interrupted", wantInterrupt: 2},
		{name: "cancelled in the last step", steps: 2, cancelAt: 2, wantSteps: []int{0, 1}, wantErr: "interrupted", wantInterrupt: 2},
		{name: "cancelled step fails", steps: 9, cancelAt: 3, failAt: 3, wantSteps: []int{0, 1, 2}, wantErr: "interrupted", wantInterrupt: 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var steps, saves, reports []int
			interrupted := -1
			l := optim.Loop{
				First: tc.first, Steps: tc.steps, CheckpointEvery: tc.every, CheckpointLast: tc.last,
				Save:  func(done int) error { saves = append(saves, done); return nil },
				Stuck: func(done, n int) error { return fmt.Errorf("stuck at %d after %d", done, n) },
				Check: func(done int) error {
					if done == tc.checkAt {
						return fmt.Errorf("check at %d", done)
					}
					return nil
				},
				Interrupt: func(ctx context.Context, done int) error {
					interrupted = done
					return fmt.Errorf("interrupted: %w", ctx.Err())
				},
				Report: func(done int, _ string) { reports = append(reports, done) },
			}
			err := l.Run(ctx, func(ctx context.Context, done int) (optim.Outcome, error) {
				steps = append(steps, done)
				n := len(steps)
				if n == tc.cancelAt {
					cancel()
				}
				if n == tc.failAt {
					return optim.Outcome{}, errors.New("step failed")
				}
				return optim.Outcome{Skipped: n <= len(tc.skip) && tc.skip[n-1]}, nil
			})
			if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Errorf("error %v, want %q", err, tc.wantErr)
			}
			if !slices.Equal(steps, tc.wantSteps) || !slices.Equal(saves, tc.wantSaves) || interrupted != tc.wantInterrupt {
				t.Errorf("steps %v saves %v interrupt %d, want %v %v %d", steps, saves, interrupted, tc.wantSteps, tc.wantSaves, tc.wantInterrupt)
			}
			if tc.wantErr == "" && len(reports) != tc.steps-tc.first {
				t.Errorf("reported %v", reports)
			}
		})
	}
}

// A Loop takes the steps left after a resume, checkpointing every second
// step; the step function is the trainer's own (here a count).
func ExampleLoop() {
	loop := optim.Loop{
		First: 1, Steps: 5, CheckpointEvery: 2,
		Save:   func(done int) error { fmt.Println("checkpoint after step", done); return nil },
		Report: func(done int, summary string) { fmt.Println(summary) },
	}
	err := loop.Run(context.Background(), func(_ context.Context, done int) (optim.Outcome, error) {
		return optim.Outcome{Summary: fmt.Sprintf("step %d", done+1)}, nil
	})
	fmt.Println(err)
	// Output:
	// checkpoint after step 2
	// step 2
	// step 3
	// checkpoint after step 4
	// step 4
	// step 5
	// <nil>
}
