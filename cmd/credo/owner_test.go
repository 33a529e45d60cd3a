package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/credo-rl/credo/internal/lock"
)

// mainEnv makes the test binary run `credo` on its arguments after "--"
// (TestMain), so a test can start a second, real credo process.
const mainEnv = "CREDO_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(mainEnv) != "" {
		ctx, stop := interruptContext()
		defer stop()
		args := os.Args[1:]
		for i, a := range args {
			if a == "--" {
				args = args[i+1:]
				break
			}
		}
		os.Exit(mainErr(ctx, args, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// credoProcess starts credo with args in a process of its own.
func credoProcess(t *testing.T, args ...string) (*exec.Cmd, *lockedBuffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"-test.run=^$", "--"}, args...)...)
	cmd.Env = append(os.Environ(), mainEnv+"=1")
	errw := &lockedBuffer{}
	cmd.Stderr = errw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd, errw
}

// waitFor waits until a process's stderr holds want.
func waitFor(t *testing.T, errw *lockedBuffer, want string) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if strings.Contains(errw.String(), want) {
			return
		}
	}
	t.Fatalf("the process never said %q: %s", want, errw.String())
}

// tinyRun trains a 2-step run with a checkpoint at every step.
func tinyRun(t *testing.T, init, out string) {
	t.Helper()
	code, _, errw := credo(context.Background(), "train", "--init", init, "--out", out, "--steps", "2", "--prompts", "1", "--group", "2",
		"--max-tokens", "8", "--eval-prompts", "0", "--checkpoint-every", "1", "--lr", "1e-3")
	if code != 0 {
		t.Fatalf("train: exit %d\n%s", code, errw)
	}
}

// TestOneOwnerPerFolder: while one credo process trains a run, a second
// `train --resume` of it exits 1 naming the first's pid and changes
// nothing; kill -9 of the first leaves no stale lock. compare and
// sft --replace refuse a folder another process holds the same way
// (issue 26: two `train --resume`, with --steps 12 and the default 8, both
// exited 0, and every later resume blamed a healthy checkpoint).
func TestOneOwnerPerFolder(t *testing.T) {
	ctx := context.Background()
	init := tinyCheckpoint(t)
	out := filepath.Join(t.TempDir(), "r1")
	tinyRun(t, init, out)
	before, _ := os.ReadFile(filepath.Join(out, "config.json"))

	owner, ownerErr := credoProcess(t, "train", "--resume", "--out", out, "--steps", "100000", "--checkpoint-every", "100000")
	waitFor(t, ownerErr, "resuming "+out)
	code, _, errw := credo(ctx, "train", "--resume", "--out", out, "--steps", "12")
	if want := fmt.Sprintf("process %d", owner.Process.Pid); code != 1 || !strings.Contains(errw, want) {
		t.Errorf("a second train --resume: exit %d, want 1 and %q in %q", code, want, errw)
	}
	if err := owner.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	owner.Wait()
	t.Logf("the first process said: %s", lastLine(ownerErr.String()))
	if code, _, errw := credo(ctx, "train", "--resume", "--out", out, "--steps", "3"); code != 0 {
		t.Errorf("resume after kill -9 of the owner: exit %d\n%s", code, errw)
	}
	var cfg struct{ Steps int }
	b, _ := os.ReadFile(filepath.Join(out, "config.json"))
	if json.Unmarshal(b, &cfg); cfg.Steps != 3 || bytes.Equal(before, b) {
		t.Errorf("config.json after the resume: steps %d", cfg.Steps)
	}

	// In one process: a folder this process holds is refused by compare,
	// sft --replace and prm train --replace, with exit 1 and the pid.
	warm := filepath.Join(t.TempDir(), "warm")
	sft := []string{"sft", "--out", warm, "--size", "tiny", "--steps", "1", "--batch", "2", "--demos", "4", "--eval-prompts", "0"}
	if code, _, errw := credo(ctx, sft...); code != 0 {
		t.Fatalf("sft: exit %d\n%s", code, errw)
	}
	cmp := filepath.Join(t.TempDir(), "cmp")
	os.Mkdir(cmp, 0o755)
	prmDir := filepath.Join(t.TempDir(), "prm")
	os.Mkdir(prmDir, 0o755)
	for _, tc := range []struct {
		dir  string
		args []string
	}{
		{warm, append(sft, "--replace")},
		{prmDir, []string{"prm", "train", "--out", prmDir, "--replace", "--task", "arith", "--size", "tiny", "--examples", "8", "--held-out", "2", "--steps", "1", "--batch", "2", "--agreement", "0"}},
		{cmp, []string{"compare", "--out", cmp, "--init", init, "--methods", "grpo", "--seeds", "1", "--steps", "1", "--prompts", "1", "--group", "2", "--max-tokens", "8", "--eval-prompts", "0", "--calibrate-prompts", "0"}},
	} {
		l, err := lock.Acquire(tc.dir)
		if err != nil {
			t.Fatal(err)
		}
		code, _, errw := credo(ctx, tc.args...)
		if want := fmt.Sprintf("process %d", os.Getpid()); code != 1 || !strings.Contains(errw, want) {
			t.Errorf("%s beside the folder's owner: exit %d, want 1 and %q in %q", tc.args[0], code, want, errw)
		}
		l.Release()
		if code, _, errw := credo(ctx, tc.args...); code != 0 {
			t.Errorf("%s once the folder is free: exit %d\n%s", tc.args[0], code, errw)
		}
	}
}

// lastLine is the last non-empty line of s.
func lastLine(s string) string {
	var last string
	for sc := bufio.NewScanner(strings.NewReader(s)); sc.Scan(); {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			last = l
		}
	}
	return last
}
