package tasktest

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/credo-rl/credo/task"
)

// UpdateEnv names the environment variable that, set to 1, makes Golden
// rewrite its file instead of comparing.
const UpdateEnv = "CREDO_UPDATE_GOLDEN"

// Stream renders the first n training and n test prompts of t (ID and
// text, quoted) and its first demos demonstrations for seed 1 under the
// default demonstration config (prompt and response, quoted): what a run
// trains and evaluates on, answers included.
func Stream(t task.Task, n, demos int) string {
	var b strings.Builder
	for _, split := range []task.Split{task.Train, task.Test} {
		for i := range n {
			p := t.Prompt(split, i)
			fmt.Fprintf(&b, "prompt %s %q\n", p.ID, p.Text)
		}
	}
	for i, d := range t.Demos(demos, 1, task.DefaultDemoConfig()) {
		fmt.Fprintf(&b, "demo %d %q -> %q flaws %v\n", i, d.Prompt, d.Response, d.Flaws)
	}
	return b.String()
}

// Golden compares got with the file at path, line by line, and fails at
// the first line that differs. With CREDO_UPDATE_GOLDEN=1 it writes got
// to path instead.
func Golden(t testing.TB, path, got string) {
	t.Helper()
	if os.Getenv(UpdateEnv) == "1" {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden file: %v (write it with %s=1)", err, UpdateEnv)
	}
	gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
	for i := range min(len(gl), len(wl)) {
		if gl[i] != wl[i] {
			t.Fatalf("%s line %d differs:\n got %s\nwant %s", path, i+1, gl[i], wl[i])
		}
	}
	if len(gl) != len(wl) {
		t.Fatalf("%s: got %d lines, want %d", path, len(gl), len(wl))
	}
}

// Tuned builds the registered task name with seed 1 at the difficulty
// settings spec ("" for the defaults), in a temporary directory (closed
// at the test's end if it holds files), failing the test on any error.
func Tuned(t testing.TB, name, spec string) task.Task {
	t.Helper()
	d, err := task.ParseDifficulty(spec)
	if err != nil {
		t.Fatal(err)
	}
	tk, err := task.New(name, task.Config{Seed: 1, Dir: t.TempDir(), Difficulty: d})
	if err != nil {
		t.Fatalf("%s difficulty %q: %v", name, spec, err)
	}
	if c, ok := tk.(interface{ Close() error }); ok {
		t.Cleanup(func() { c.Close() })
	}
	return tk
}

// Refuses checks that the registered task name rejects each of the
// difficulty settings bad with an error that names the task.
func Refuses(t testing.TB, name string, bad ...string) {
	t.Helper()
	for _, spec := range bad {
		d, err := task.ParseDifficulty(spec)
		if err != nil {
			t.Fatal(err)
		}
		tk, err := task.New(name, task.Config{Dir: t.TempDir(), Difficulty: d})
		if err == nil {
			if c, ok := tk.(interface{ Close() error }); ok {
				c.Close()
			}
			t.Errorf("difficulty %q accepted", spec)
		} else if !strings.Contains(err.Error(), name) {
			t.Errorf("difficulty %q: error %q does not name the task", spec, err)
		}
	}
}
