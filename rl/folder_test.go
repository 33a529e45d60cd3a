package rl

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/credo-rl/credo/run"
)

// resumeOK resumes the run in dir as `train --resume --out name` does (its
// saved configuration, out as named, change applied), closes it, and
// returns the keys resumes.json recorded for that resume.
func resumeOK(t *testing.T, dir, name string, change func(*Config)) []string {
	t.Helper()
	before := len(readResumes(t, dir))
	c, err := LoadRunConfig(dir)
	if err != nil {
		t.Fatal(err)
	}
	c.Out = name
	change(&c)
	tr, err := New(context.Background(), c, true, io.Discard)
	if err != nil {
		t.Fatalf("resume: %v", err)
	}
	tr.Close()
	var keys []string
	for _, r := range readResumes(t, dir)[before:] {
		for _, ch := range r.Changes {
			keys = append(keys, ch.Key)
		}
	}
	return keys
}

// trainRun trains a new run with c to its end and closes it.
func trainRun(t *testing.T, c Config) {
	t.Helper()
	tr := newTrainer(t, c, false)
	defer tr.Close()
	if err := tr.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func readResumes(t *testing.T, dir string) []ResumeRecord {
	var recs []ResumeRecord
	if err := run.ReadJSON(filepath.Join(dir, ResumesFile), &recs); err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	return recs
}

// TestResumeKnowsFolder: a resume knows a run folder and the paths it
// names by what they point to: the folder named relatively, absolutely,
// with a trailing slash or "./", or from another working directory
// resumes with nothing to record; a moved or a copied folder resumes, its
// new place recorded; settings that may change (a judge's URL, the memory
// budget, worker counts) are applied and recorded in resumes.json; one
// that may not is refused by name (issue 26: each of these resumes was
// refused, exit 2, until config.json was edited by hand).
func TestResumeKnowsFolder(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home")
	os.MkdirAll(home, 0o755)
	if out, err := exec.Command("cp", "-r", microPolicy(t), filepath.Join(home, "warm")).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	t.Chdir(home)
	c := microConfig(t, "toolcall", "gdpo")
	c.Init, c.Out = "warm", filepath.Join("runs", "x")
	c.Steps, c.EvalPrompts, c.CheckpointEvery, c.MaxVerifyErrors = 1, 0, 1, 1 // the fake judge fails its verdicts
	c.Judges = []string{"name=q,url=" + fakeJudge(t) + ",model=m,retries=0"}
	trainRun(t, c)
	abs := filepath.Join(home, "runs", "x")
	for _, name := range []string{"runs/x/", "./runs/x", abs} {
		if keys := resumeOK(t, abs, name, func(*Config) {}); len(keys) > 0 {
			t.Errorf("resuming as %s recorded %v", name, keys)
		}
	}
	elsewhere := filepath.Join(root, "elsewhere")
	os.MkdirAll(elsewhere, 0o755)
	t.Chdir(elsewhere)
	if keys := resumeOK(t, abs, abs, func(*Config) {}); len(keys) > 0 {
		t.Errorf("resuming from another working directory recorded %v", keys)
	}

	moved := filepath.Join(root, "disk2", "y")
	os.MkdirAll(filepath.Dir(moved), 0o755)
	if err := os.Rename(abs, moved); err != nil {
		t.Fatal(err)
	}
	if keys := resumeOK(t, moved, moved, func(*Config) {}); !slices.Equal(keys, []string{"out"}) {
		t.Errorf("a moved folder: recorded %v, want [out]", keys)
	}
	copied := filepath.Join(root, "disk3", "z")
	os.MkdirAll(filepath.Dir(copied), 0o755)
	if out, err := exec.Command("cp", "-r", moved, copied).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	if keys := resumeOK(t, copied, copied, func(*Config) {}); !slices.Equal(keys, []string{"out"}) {
		t.Errorf("a copied folder: recorded %v, want [out]", keys)
	}
	saved, err := LoadRunConfig(copied)
	if err != nil || filepath.Clean(saved.Out) != copied {
		t.Errorf("config.json of the copy names %q (%v)", saved.Out, err)
	}

	newJudge := "name=q,url=" + fakeJudge(t) + ",model=m,retries=0"
	keys := resumeOK(t, copied, copied, func(c *Config) {
		c.Judges = []string{newJudge}
		c.Memory.Budget, c.VerifyWorkers = 1<<30, 2
	})
	slices.Sort(keys)
	if want := []string{"judges.q.url", "memory_budget", "verify_workers"}; !slices.Equal(keys, want) {
		t.Errorf("a judge on a new port, another memory budget and worker count: recorded %v, want %v", keys, want)
	}
	for _, tc := range []struct {
		change func(*Config)
		want   string
	}{
		{func(c *Config) { c.Peak = 5e-3 }, "lr"},
		{func(c *Config) { c.Judges = []string{strings.Replace(newJudge, "model=m", "model=other", 1)} }, "model"},
		{func(c *Config) { c.Init = filepath.Join(root, "none") }, "init"},
	} {
		now, _ := LoadRunConfig(copied)
		tc.change(&now)
		_, err := New(context.Background(), now, true, io.Discard)
		var rc *ResumeConflict
		if !errors.As(err, &rc) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("a resume changing %s: %v", tc.want, err)
		}
	}
}

// TestResumeComparesRecordsPath: a records file is a path like init: saved
// absolute, it matches the same file named relatively from here, and
// another file is refused (its digest is checked apart, when the task is
// built).
func TestResumeComparesRecordsPath(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"x.jsonl", "y.jsonl"} {
		if err := os.WriteFile(filepath.Join(root, f), []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(root)
	saved := DefaultConfig()
	saved.Out, saved.Records, saved.Format = filepath.Join(root, "run"), filepath.Join(root, "x.jsonl"), "ifeval"
	for _, tc := range []struct {
		records string
		refused bool
	}{{"x.jsonl", false}, {"./x.jsonl", false}, {filepath.Join(root, "x.jsonl"), false}, {"y.jsonl", true}} {
		now := saved
		now.Records = tc.records
		got, _, refused := resumeCompare(saved, now)
		if (len(refused) > 0) != tc.refused {
			t.Errorf("records %q after %q: refused %v, want refused %v", tc.records, saved.Records, refused, tc.refused)
		}
		if !tc.refused && got.Records != saved.Records {
			t.Errorf("records %q resolved to %q, want %q", tc.records, got.Records, saved.Records)
		}
	}
}
