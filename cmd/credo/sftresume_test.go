package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/credo-rl/credo/policy"
)

// TestSFTResume: Ctrl-C during sft keeps the warm-up's state and says how
// to continue; a plain rerun refuses the unfinished folder, --resume
// finishes it, and the finished folder holds the policy without the
// checkpoint (issue 27: sft kept no checkpoint, so Ctrl-C lost a long
// warm-up).
func TestSFTResume(t *testing.T) {
	ctx := context.Background()
	out := filepath.Join(t.TempDir(), "warm")
	args := []string{"sft", "--out", out, "--size", "tiny", "--steps", "400", "--batch", "2", "--demos", "4",
		"--eval-prompts", "0", "--checkpoint-every", "10"}
	proc, errw := credoProcess(t, args...)
	ckpt := filepath.Join(out, sftCheckpointDir, "state.json")
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(ckpt); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no checkpoint after 2 minutes: %s", errw.String())
		}
	}
	proc.Process.Signal(syscall.SIGINT)
	err := proc.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitInterrupted || !strings.Contains(errw.String(), "--resume") {
		t.Fatalf("sft after Ctrl-C: %v, stderr %q", err, errw.String())
	}
	if code, _, e := credo(ctx, args...); code != 2 || !strings.Contains(e, "continue it with --resume") {
		t.Errorf("sft again without --resume: exit %d, %q", code, e)
	}
	if code, _, e := credo(ctx, append(args, "--resume")...); code != 0 || !strings.Contains(e, "resuming the warm-up from") {
		t.Fatalf("sft --resume: exit %d\n%s", code, e)
	}
	if _, err := os.Stat(filepath.Join(out, sftCheckpointDir)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the finished folder still holds the checkpoint: %v", err)
	}
	if _, err := policy.Load(out); err != nil {
		t.Errorf("the finished warm-up does not load: %v", err)
	}
	if code, _, e := credo(ctx, append(args, "--resume")...); code != 2 || !strings.Contains(e, "no warm-up checkpoint") {
		t.Errorf("--resume of a finished warm-up: exit %d, %q", code, e)
	}
}
