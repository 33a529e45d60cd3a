package rl

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestResumeRefusesDamagedMetrics: a resume reads metrics.jsonl and
// refuses one that is damaged, has a gap or repeats a step, with an error
// naming the file and the line, and leaves the file byte for byte as it
// was (before, such lines were dropped and the file rewritten).
func TestResumeRefusesDamagedMetrics(t *testing.T) {
	c := microConfig(t, "toolcall", "grpo")
	c.Steps, c.CheckpointEvery, c.EvalPrompts = 4, 2, 0
	if err := newTrainer(t, c, false).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(filepath.Join(c.Out, "metrics.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(good), "\n"), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d metric lines, want 4", len(lines))
	}
	edit := func(f func(ls []string) []string) string {
		return strings.Join(f(append([]string(nil), lines...)), "")
	}
	for _, tc := range []struct {
		name  string
		data  string
		wants []string
	}{
		{"torn line", edit(func(ls []string) []string { ls[1] = ls[1][:len(ls[1])/2] + "\n"; return ls }), []string{"metrics.jsonl", "line 2"}},
		{"not an object", edit(func(ls []string) []string { ls[2] = "[1, 2]\n"; return ls }), []string{"metrics.jsonl", "line 3"}},
		{"no step", edit(func(ls []string) []string { ls[0] = `{"lr": 1}` + "\n"; return ls }), []string{"metrics.jsonl", "line 1", `"step"`}},
		{"gap", edit(func(ls []string) []string { return append(ls[:1], ls[2:]...) }), []string{"metrics.jsonl", "line 2", "step 2 is missing"}},
		{"duplicate", edit(func(ls []string) []string { return append(ls[:2], append([]string{ls[1]}, ls[2:]...)...) }), []string{"metrics.jsonl", "line 3", "step 2 again"}},
		{"out of order", edit(func(ls []string) []string { ls[1], ls[2] = ls[2], ls[1]; return ls }), []string{"metrics.jsonl", "line 2"}},
		{"short of the checkpoint", edit(func(ls []string) []string { return ls[:2] }), []string{"metrics.jsonl", "ends after step 2", "checkpoint is at step 4", "steps 3 to 4 are missing"}},
		{"missing file", "", []string{"metrics.jsonl does not exist", "checkpoint is at step 4"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(c.Out, "metrics.jsonl")
			if tc.data == "" {
				os.Remove(path)
			} else if err := os.WriteFile(path, []byte(tc.data), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := New(context.Background(), c, true, io.Discard)
			t.Log(err)
			for _, w := range tc.wants {
				if err == nil || !strings.Contains(err.Error(), w) {
					t.Errorf("error %v, want it to mention %q", err, w)
				}
			}
			after, _ := os.ReadFile(path)
			if !bytes.Equal(after, []byte(tc.data)) {
				t.Errorf("metrics.jsonl was rewritten: %d bytes before, %d after", len(tc.data), len(after))
			}
		})
	}
	// The intact file resumes, and the resumed run keeps it whole.
	if err := os.WriteFile(filepath.Join(c.Out, "metrics.jsonl"), good, 0o644); err != nil {
		t.Fatal(err)
	}
	tr := newTrainer(t, c, true)
	if !tr.Done() {
		t.Error("the finished run resumed as unfinished")
	}
	if after, _ := os.ReadFile(filepath.Join(c.Out, "metrics.jsonl")); !bytes.Equal(after, good) {
		t.Errorf("an intact metrics.jsonl changed on resume")
	}
}
