package lab

import (
	"context"
	"io"
	"path/filepath"
	"testing"

	"github.com/credo-rl/credo/policy"
)

// TestWarmUpLearns: supervised warm-up on tool-calling demonstrations
// takes next-token accuracy on the responses of prompts it never saw from
// chance (1/267) to well above it, and writes a checkpoint that loads.
func TestWarmUpLearns(t *testing.T) {
	c := DefaultWarmup()
	c.Task, c.Size, c.Demos, c.Steps, c.Batch = "toolcall", "tiny", 400, 60, 8
	c.Peak, c.WarmupSteps = 1e-2, 5
	c.Eval.Prompts = 0
	out := filepath.Join(t.TempDir(), "warm")
	_, rep, err := WarmUp(context.Background(), c, out, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("held-out next-token accuracy %.3f before, %.3f after; loss %.3f", rep.HeldOutBefore, rep.HeldOutAfter, rep.FinalLoss)
	if rep.HeldOutBefore > 0.05 || rep.HeldOutAfter < 0.4 {
		t.Errorf("held-out accuracy %.3f → %.3f: want from near chance to above 0.4", rep.HeldOutBefore, rep.HeldOutAfter)
	}
	if _, err := policy.Load(out); err != nil {
		t.Errorf("the checkpoint does not load: %v", err)
	}
	again, rep2, err := WarmUp(context.Background(), c, "", io.Discard)
	if err != nil || again == nil || rep2.FinalLoss != rep.FinalLoss {
		t.Errorf("warm-up is not deterministic: loss %v then %v (%v)", rep.FinalLoss, rep2.FinalLoss, err)
	}
}

// TestWarmUpBlockDiagnostic: warm-up ends with the block diagnostic on the
// evaluation's test prompts, for a task with reference responses.
func TestWarmUpBlockDiagnostic(t *testing.T) {
	c := DefaultWarmup()
	c.Task, c.Size, c.Demos, c.Steps, c.Batch = "arith", "tiny", 8, 1, 2
	c.Eval.Prompts, c.Eval.MaxTokens = 2, 4
	_, rep, err := WarmUp(context.Background(), c, "", io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if b := rep.Blocks; b == nil || b.Prompts != 2 || b.Tokens == 0 || len(b.ReplayJS) != 2 {
		t.Fatalf("block diagnostic %+v", b)
	}
}
