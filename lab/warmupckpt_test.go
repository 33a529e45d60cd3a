package lab

import (
	"context"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestWarmUpResumes: a warm-up continued from its checkpoint ends with the
// same weights, bit for bit, as one never stopped, and reports the same
// loss and held-out accuracies; a checkpoint made with other settings is
// refused, naming them (issue 27: sft kept no checkpoint).
func TestWarmUpResumes(t *testing.T) {
	ctx := context.Background()
	c := DefaultWarmup()
	c.Task, c.Size, c.Demos, c.Steps, c.Batch = "toolcall", "tiny", 40, 6, 4
	c.Peak, c.WarmupSteps = 1e-2, 2
	c.Eval.Prompts = 0
	whole, want, err := WarmUp(ctx, c, "", io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	// A warm-up with a checkpoint every 2 steps leaves the one of step 4
	// behind (the caller replaces it with the finished policy); a second
	// run from it takes steps 5 and 6 only.
	dir := filepath.Join(t.TempDir(), "ckpt")
	if _, _, err := WarmUp(ctx, c, "", io.Discard, Checkpoints(dir, 2)); err != nil {
		t.Fatal(err)
	}
	ck, ok, err := loadWarmupCheckpoint(dir, c)
	if err != nil || !ok || ck.state.Step != 4 {
		t.Fatalf("checkpoint: step %d, ok %v, %v", ck.state.Step, ok, err)
	}
	var log strings.Builder
	resumed, got, err := WarmUp(ctx, c, "", &log, Checkpoints(dir, 2))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "resuming the warm-up from") {
		t.Errorf("the log does not say it resumed:\n%s", log.String())
	}
	a, b := whole.Model.ParamData(), resumed.Model.ParamData()
	for i := range a {
		if !slices.Equal(a[i], b[i]) {
			t.Fatalf("weight %s differs after the resume", whole.Model.Specs()[i].Name)
		}
	}
	if got.FinalLoss != want.FinalLoss || got.HeldOutBefore != want.HeldOutBefore || got.HeldOutAfter != want.HeldOutAfter || got.Tokens != want.Tokens {
		t.Errorf("report after the resume %+v, want %+v", got, want)
	}
	other := c
	other.Peak = 2e-2
	if _, _, err := WarmUp(ctx, other, "", io.Discard, Checkpoints(dir, 2)); err == nil || !strings.Contains(err.Error(), "other settings") {
		t.Errorf("a checkpoint of other settings: %v", err)
	}
}
