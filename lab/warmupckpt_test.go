package lab

import (
	"context"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/credo-rl/credo/ckpt"
	"github.com/credo-rl/credo/run"
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

// TestWarmUpResumesLegacyCheckpoint: a warm-up checkpoint written before
// the trainers shared package ckpt's format (testdata/warmup-v1: the
// settings in warmup-config.json, no checksums.json; step 4 of the
// settings it names, made by credo at 48cf86d) still resumes, to the
// weights of a warm-up never stopped within float32 rounding (its first
// steps ran on that build), and the checkpoint it then writes is in the
// shared format.
func TestWarmUpResumesLegacyCheckpoint(t *testing.T) {
	ctx := context.Background()
	c := DefaultWarmup()
	legacy := filepath.Join("testdata", "warmup-v1")
	if err := run.ReadJSON(filepath.Join(legacy, legacyConfigFile), &c); err != nil {
		t.Fatal(err)
	}
	whole, want, err := WarmUp(ctx, c, "", io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "ckpt")
	if err := os.CopyFS(dir, os.DirFS(legacy)); err != nil {
		t.Fatal(err)
	}
	ck, ok, err := loadWarmupCheckpoint(dir, c)
	if err != nil || !ok || ck.state.Step != 4 {
		t.Fatalf("legacy checkpoint: step %d, ok %v, %v", ck.state.Step, ok, err)
	}
	var log strings.Builder
	resumed, got, err := WarmUp(ctx, c, "", &log, Checkpoints(dir, 2))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "resuming the warm-up from") {
		t.Errorf("the log does not say it resumed:\n%s", log.String())
	}
	// The checkpoint's four steps ran on the build that wrote it, so a later
	// change of float32 rounding (the loss's head computed only where the
	// mask reads it) moves the weights by rounding, not more.
	a, b := whole.Model.ParamData(), resumed.Model.ParamData()
	maxDiff := 0.0
	for i := range a {
		for j := range a[i] {
			maxDiff = max(maxDiff, math.Abs(float64(a[i][j]-b[i][j])))
		}
	}
	t.Logf("weights after resuming the legacy checkpoint differ by at most %.3g", maxDiff)
	if maxDiff > 1e-5 {
		t.Fatalf("weights after resuming the legacy checkpoint differ by up to %.3g from a warm-up never stopped", maxDiff)
	}
	if math.Abs(got.FinalLoss-want.FinalLoss) > 1e-5*(1+math.Abs(want.FinalLoss)) || got.Tokens != want.Tokens {
		t.Errorf("report after the resume %+v, want %+v", got, want)
	}
	other := c
	other.Batch = 2
	if _, _, err := loadWarmupCheckpoint(legacy, other); err == nil || !strings.Contains(err.Error(), "other settings") {
		t.Errorf("a legacy checkpoint of other settings: %v", err)
	}
}

// TestWarmupCheckpointFormat: the warm-up writes package ckpt's one
// format (the settings in run-config.json pinned by state.json, every
// file checksummed), and a changed file is refused.
func TestWarmupCheckpointFormat(t *testing.T) {
	ctx := context.Background()
	c := DefaultWarmup()
	c.Task, c.Size, c.Demos, c.Steps, c.Batch = "toolcall", "tiny", 40, 4, 4
	c.Eval.Prompts = 0
	dir := filepath.Join(t.TempDir(), "ckpt")
	if _, _, err := WarmUp(ctx, c, "", io.Discard, Checkpoints(dir, 2)); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{ckpt.RunConfigFile, ckpt.ChecksumsFile, ckpt.StateFile, ckpt.OptimizerFile} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("the checkpoint lacks %s: %v", name, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, legacyConfigFile)); err == nil {
		t.Errorf("the checkpoint still writes %s", legacyConfigFile)
	}
	ck, ok, err := loadWarmupCheckpoint(dir, c)
	if err != nil || !ok || ck.state.Step != 2 || ck.state.ConfigSHA256 == "" || ck.state.Seed != c.Seed {
		t.Fatalf("checkpoint: %+v, ok %v, %v", ck.state, ok, err)
	}
	if err := os.WriteFile(filepath.Join(dir, ckpt.OptimizerFile), []byte("changed"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := loadWarmupCheckpoint(dir, c); err == nil || !strings.Contains(err.Error(), "has changed") {
		t.Errorf("a changed optimizer file: %v", err)
	}
}
