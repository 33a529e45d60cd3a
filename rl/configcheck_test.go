package rl

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckpointPinsConfig: a checkpoint records the hash of config.json
// (checksummed with the rest), so editing lr in config.json is an error
// naming lr, while the changes a resume makes itself are not; a checkpoint
// whose checksums.json is gone, in a run that wrote one, is an error unless
// the resume accepts it explicitly, which is logged and recorded (issue 26:
// an edited lr silently changed the run, and deleting checksums.json let
// a flipped weight bit through).
func TestCheckpointPinsConfig(t *testing.T) {
	c := microConfig(t, "toolcall", "gdpo")
	c.Steps, c.EvalPrompts, c.CheckpointEvery = 2, 0, 1
	trainRun(t, c)
	ctx := context.Background()
	cfgPath := filepath.Join(c.Out, "config.json")
	original, _ := os.ReadFile(cfgPath)

	var m map[string]any
	json.Unmarshal(original, &m)
	m["lr"] = 5e-3
	edited, _ := json.MarshalIndent(m, "", "  ")
	os.WriteFile(cfgPath, edited, 0o644)
	saved, err := LoadRunConfig(c.Out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(ctx, saved, true, io.Discard); err == nil || !strings.Contains(err.Error(), "lr") || !strings.Contains(err.Error(), "config.json") {
		t.Errorf("resume after lr was edited in config.json: %v", err)
	}
	os.WriteFile(cfgPath, original, 0o644)

	longer := c
	longer.Steps = 4 // a change the resume records in config.json and resumes.json
	newTrainer(t, longer, true).Close()
	again, _ := LoadRunConfig(c.Out)
	newTrainer(t, again, true).Close()

	ckpt, _ := latestCheckpoint(c.Out)
	os.Remove(filepath.Join(ckpt, checksumsFile))
	if _, err := New(ctx, again, true, io.Discard); err == nil || !strings.Contains(err.Error(), checksumsFile) || !strings.Contains(err.Error(), "accept") {
		t.Errorf("resume of a checkpoint whose checksums.json was deleted: %v", err)
	}
	var log bytes.Buffer
	tr2, err := New(ctx, again, true, &log, WithMissingChecksums())
	if err != nil {
		t.Fatalf("resume accepting the missing checksums: %v", err)
	}
	tr2.Close()
	recs := readResumes(t, c.Out)
	if last := recs[len(recs)-1]; !strings.Contains(last.Accepted, checksumsFile) || !strings.Contains(log.String(), checksumsFile) {
		t.Errorf("the acceptance was not recorded: %+v, log %q", last, log.String())
	}
}
