package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/credo-rl/credo/internal/lock"
)

// killDuringSave runs `credo sft --replace` and kills it (SIGKILL) the
// moment a new temporary folder appears in parent, until a kill lands while
// the save writes (the folder holds its lock file); it returns that folder.
func killDuringSave(t *testing.T, args []string, parent string) string {
	t.Helper()
	for try := 1; try <= 20; try++ {
		seen := hiddenTemps(parent)
		p, _ := credoProcess(t, args...)
		exited := make(chan struct{})
		go func() { p.Wait(); close(exited) }()
	watch:
		for {
			for _, tmp := range hiddenTemps(parent) {
				if slices.Contains(seen, tmp) {
					continue
				}
				p.Process.Signal(syscall.SIGKILL)
				<-exited
				if _, err := os.Stat(filepath.Join(tmp, lock.File)); err == nil {
					t.Logf("try %d: killed while it saved %s", try, tmp)
					return tmp
				}
				break watch // killed before the save began, or after it ended
			}
			select {
			case <-exited:
				break watch
			case <-time.After(200 * time.Microsecond):
			}
		}
	}
	t.Skip("no kill landed during the save in 20 tries")
	return ""
}

// hiddenTemps are the temporary folders (".name.tmp…") in parent.
func hiddenTemps(parent string) []string {
	var out []string
	entries, _ := os.ReadDir(parent)
	for _, e := range entries {
		if e.IsDir() && strings.HasPrefix(e.Name(), ".") && strings.Contains(e.Name(), ".tmp") {
			out = append(out, filepath.Join(parent, e.Name()))
		}
	}
	return out
}

// TestAbandonedTempRemoved: kill -9 during `sft --replace` leaves a hidden
// temporary folder beside --out; the next run in that parent (sft, or a
// new training run) removes it and says so (issue 26: nothing removed it).
func TestAbandonedTempRemoved(t *testing.T) {
	ctx := context.Background()
	parent := t.TempDir()
	warm := filepath.Join(parent, "warm")
	sft := []string{"sft", "--out", warm, "--size", "tiny", "--steps", "1", "--batch", "2", "--demos", "4", "--eval-prompts", "0", "--replace"}
	for _, next := range [][]string{
		sft,
		{"train", "--init", warm, "--out", filepath.Join(parent, "r"), "--steps", "1", "--prompts", "1", "--group", "2", "--max-tokens", "8", "--eval-prompts", "0"},
	} {
		if code, _, errw := credo(ctx, sft...); code != 0 {
			t.Fatalf("sft: exit %d\n%s", code, errw)
		}
		tmp := killDuringSave(t, sft, parent)
		code, _, errw := credo(ctx, next...)
		if code != 0 {
			t.Fatalf("%s after the kill: exit %d\n%s", next[0], code, errw)
		}
		if _, err := os.Stat(tmp); err == nil {
			t.Errorf("%s left %s in place", next[0], tmp)
		}
		if !strings.Contains(errw, "removed "+tmp) {
			t.Errorf("%s did not say it removed %s: %q", next[0], tmp, errw)
		}
	}
}
