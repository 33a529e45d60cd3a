package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/credo-rl/credo/prm"
)

// TestPRMTrainAndEval runs `credo prm train` at a tiny size, then `credo
// prm eval` on the folder it wrote.
func TestPRMTrainAndEval(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "prm")
	var out, errw bytes.Buffer
	err := runPRM(ctx, []string{"train", "--task", "arith", "--size", "tiny", "--examples", "32", "--held-out", "8",
		"--steps", "2", "--batch", "4", "--agreement", "1", "--out", dir}, &out, &errw)
	if err != nil {
		t.Fatalf("prm train: %v\n%s", err, errw.String())
	}
	for _, want := range []string{"wrote " + dir, "held-out: accuracy", "clean:", "wrong-result:", "within-step Spearman"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("train output lacks %q:\n%s", want, out.String())
		}
	}
	if !strings.Contains(errw.String(), "prm train 2/2") {
		t.Errorf("no progress on stderr:\n%s", errw.String())
	}
	if _, err := prm.Load(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, prm.TrainFile)); err != nil {
		t.Error(err)
	}
	out.Reset()
	if err := runPRM(ctx, []string{"eval", "--prm", dir, "--held-out", "8", "--agreement", "1", "--null", "mean"}, &out, &errw); err != nil {
		t.Fatalf("prm eval: %v", err)
	}
	if !strings.Contains(out.String(), "held-out: accuracy") || !strings.Contains(out.String(), "Spearman") {
		t.Errorf("eval output:\n%s", out.String())
	}
}

func TestPRMUsage(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		args  []string
		usage bool   // a usageError (exit code 2)
		help  bool   // flag.ErrHelp (exit code 0)
		want  string // in the error or on stderr
	}{
		{nil, true, false, "missing subcommand"},
		{[]string{"fit"}, true, false, "unknown subcommand"},
		{[]string{"train"}, true, false, "--out is required"},
		{[]string{"train", "--steps", "x", "--out", "d"}, true, false, "invalid value"},
		{[]string{"train", "--out", "d", "extra"}, true, false, "unexpected arguments"},
		{[]string{"eval"}, true, false, "--prm is required"},
		{[]string{"--help"}, false, true, "Subcommands:"},
		{[]string{"train", "--help"}, false, true, "-policy-max-tokens int"},
		{[]string{"eval", "-h"}, false, true, "(default \"pad\")"},
	} {
		var out, errw bytes.Buffer
		err := runPRM(ctx, tc.args, &out, &errw)
		if got := errors.As(err, new(usageError)); got != tc.usage {
			t.Errorf("%q: error %v, usage error %v want %v", tc.args, err, got, tc.usage)
		}
		if got := errors.Is(err, flag.ErrHelp); got != tc.help {
			t.Errorf("%q: error %v, help %v want %v", tc.args, err, got, tc.help)
		}
		if msg := out.String() + " " + errw.String() + " " + errString(err); !strings.Contains(msg, tc.want) {
			t.Errorf("%q: %q not in %s", tc.args, tc.want, msg)
		}
	}
	var errw bytes.Buffer
	if err := runPRM(ctx, []string{"eval", "--prm", t.TempDir()}, &bytes.Buffer{}, &errw); err == nil || !strings.Contains(err.Error(), "not a PRM folder") {
		t.Errorf("eval of an empty folder: %v", err)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestPRMEvalUsesTrainingHeldOut: `prm eval` on a PRM folder scores the
// held-out set its training reported, made with the training's seeds and
// size, unless flags say otherwise.
func TestPRMEvalUsesTrainingHeldOut(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "prm")
	var out, errw bytes.Buffer
	err := runPRM(ctx, []string{"train", "--task", "arith", "--size", "tiny", "--examples", "16", "--held-out", "12",
		"--steps", "1", "--batch", "4", "--agreement", "0", "--seed", "7", "--task-seed", "3", "--out", dir}, &out, &errw)
	if err != nil {
		t.Fatalf("prm train: %v\n%s", err, errw.String())
	}
	heldOut := func(s string) string {
		i := strings.Index(s, "held-out:")
		if i < 0 {
			t.Fatalf("no held-out line in:\n%s", s)
		}
		return s[i:]
	}
	trained := heldOut(out.String())
	out.Reset()
	if err := runPRM(ctx, []string{"eval", "--prm", dir, "--agreement", "0"}, &out, &errw); err != nil {
		t.Fatalf("prm eval: %v", err)
	}
	if got := heldOut(out.String()); got != trained {
		t.Errorf("prm eval scored another held-out set than training did:\neval:\n%s\ntrain:\n%s", got, trained)
	}
	out.Reset()
	if err := runPRM(ctx, []string{"eval", "--prm", dir, "--agreement", "0", "--held-out", "4"}, &out, &errw); err != nil {
		t.Fatalf("prm eval: %v", err)
	}
	if got := heldOut(out.String()); got == trained {
		t.Errorf("--held-out 4 scored the training's 12 prompts:\n%s", got)
	}
}
