package sql

import (
	"context"
	"crypto/sha256"
	"io"
	"os"
	"testing"

	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/task"
)

// openTask opens a task in a test directory and closes it at the end.
func openTask(tb testing.TB, seed uint64, o Options) *Task {
	tb.Helper()
	tk, err := Open(task.Config{Seed: seed, Dir: tb.TempDir()}, o)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := tk.Close(); err != nil {
			tb.Error(err)
		}
	})
	return tk
}

// wellFormed is a response in the task's format.
func wellFormed(think, query string) string {
	return "<think>" + think + "</think><answer>" + query + "</answer>"
}

// verifyAll runs every reward on resp, failing the test on an error.
func verifyAll(tb testing.TB, tk *Task, p reward.Prompt, resp string) map[string]reward.Verdict {
	tb.Helper()
	out := map[string]reward.Verdict{}
	for _, v := range tk.Rewards() {
		vd, err := v.Verify(context.Background(), p, resp)
		if err != nil {
			tb.Fatalf("%s.Verify(%q): %v", v.Name(), resp, err)
		}
		if vd.Score == 0 && vd.Reason == "" {
			tb.Errorf("%s.Verify(%q): score 0 without a reason", v.Name(), resp)
		}
		for _, s := range vd.Spans {
			if s.Start < 0 || s.End > len(resp) || s.Start > s.End {
				tb.Errorf("%s.Verify(%q): span %+v outside the response", v.Name(), resp, s)
			}
		}
		out[v.Name()] = vd
	}
	return out
}

func fileHash(tb testing.TB, path string) [32]byte {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		tb.Fatal(err)
	}
	return [32]byte(h.Sum(nil))
}
