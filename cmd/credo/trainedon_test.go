package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/credo-rl/credo/run"
)

// TestModelRemembersItsTask: eval and train --init take the task a model
// was trained on from its warmup.json or its checkpoint's run-config.json,
// and --model/--init accept a run folder for its newest checkpoint (issue
// 27: the demo's model scored 0 without --task, `train --init` silently
// trained a slots policy on toolcall, a run folder failed on a tokenizer
// error).
func TestModelRemembersItsTask(t *testing.T) {
	ctx := context.Background()
	warm := tinyCheckpoint(t)
	rec := map[string]any{"config": map[string]any{"task": "slots", "task_seed": 0, "difficulty": "slots=3,max=5"}}
	if err := run.WriteJSON(filepath.Join(warm, run.WarmupFile), rec); err != nil {
		t.Fatal(err)
	}
	evalArgs := []string{"--prompts", "2", "--max-tokens", "4"}

	type evalOut struct{ Task, Difficulty, Model string }
	evalJSON := func(args ...string) (evalOut, string) {
		t.Helper()
		code, o, e := credo(ctx, append(append([]string{"eval"}, args...), evalArgs...)...)
		if code != 0 {
			t.Fatalf("eval %v: exit %d\n%s", args, code, e)
		}
		var out evalOut
		if err := json.Unmarshal([]byte(o), &out); err != nil {
			t.Fatalf("eval %v: %v\n%s", args, err, o)
		}
		return out, e
	}

	got, notice := evalJSON("--model", warm)
	if got.Task != "slots" || got.Difficulty != "slots=3,max=5" || !strings.Contains(notice, "task slots at difficulty slots=3,max=5, as ") {
		t.Errorf("eval without --task: %+v, stderr %q", got, notice)
	}
	got, notice = evalJSON("--model", warm, "--task", "toolcall")
	if got.Task != "toolcall" || got.Difficulty != "" || !strings.Contains(notice, "was trained on task slots") {
		t.Errorf("eval --task toolcall: %+v, stderr %q", got, notice)
	}

	out := filepath.Join(t.TempDir(), "r1")
	code, o, e := credo(ctx, "train", "--init", warm, "--out", out, "--steps", "1", "--prompts", "1", "--group", "2",
		"--max-tokens", "4", "--eval-prompts", "2", "--checkpoint-every", "1")
	if code != 0 {
		t.Fatalf("train: exit %d\n%s", code, e)
	}
	var cfg struct{ Task, Difficulty string }
	if b, err := os.ReadFile(filepath.Join(out, "config.json")); err != nil || json.Unmarshal(b, &cfg) != nil {
		t.Fatalf("config.json: %v", err)
	}
	if cfg.Task != "slots" || cfg.Difficulty != "slots=3,max=5" {
		t.Errorf("train --init without --task trained on %+v, want the warm-up's slots", cfg)
	}
	if !strings.Contains(o, "final greedy evaluation on 2 test prompts: slot1 ") {
		t.Errorf("train's closing lines give no final evaluation:\n%s", o)
	}

	// A run folder stands for its newest checkpoint, whose run-config.json
	// names the task.
	got, _ = evalJSON("--model", out)
	if got.Task != "slots" || !strings.HasSuffix(got.Model, filepath.Join("checkpoints", "step-000001")) {
		t.Errorf("eval --model <run folder>: %+v", got)
	}
	empty := t.TempDir()
	os.Mkdir(filepath.Join(empty, "checkpoints"), 0o755)
	if code, _, e := credo(ctx, "eval", "--model", empty); code != 2 || !strings.Contains(e, "no checkpoint yet") {
		t.Errorf("eval of a run folder without checkpoints: exit %d, %q", code, e)
	}
}
