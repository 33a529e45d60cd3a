package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// boundedCredo runs credo in a process of its own whose address space is
// capped at 8 GB (so the reads these tests guard against cannot take the
// machine down), with stdin, and returns its exit code and stderr; a run
// past the deadline is killed and reported as -1.
func boundedCredo(t *testing.T, stdin string, deadline time.Duration, args ...string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", append([]string{"-c", `ulimit -v 8000000 && exec "$0" "$@"`, os.Args[0], "-test.run=^$", "--"}, args...)...)
	cmd.Env = append(os.Environ(), mainEnv+"=1")
	cmd.Stdin = strings.NewReader(stdin)
	var errw bytes.Buffer
	cmd.Stderr = &errw
	err := cmd.Run()
	if ctx.Err() != nil {
		return -1, errw.String()
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), errw.String()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, errw.String()
}

// TestBoundedInputs: every file credo reads as input must be a regular
// file within a size suited to it, or an explicit "-" for stdin: a device,
// a FIFO or an oversized file is a clear error at once, exit 2 (issue 26:
// `--config /dev/zero`, `rubric=/dev/zero` or a FIFO as config grew to
// ~20 GB until the OOM killer, ignoring SIGINT and SIGTERM).
func TestBoundedInputs(t *testing.T) {
	dir := t.TempDir()
	init := tinyCheckpoint(t)
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFO:", err)
	}
	big := filepath.Join(dir, "big.json")
	os.WriteFile(big, append([]byte(`{"steps": 2`), append(bytes.Repeat([]byte(" "), 2<<20), '}')...), 0o644)
	badInit := filepath.Join(dir, "bad-init")
	os.MkdirAll(badInit, 0o755)
	for _, f := range []string{"model.safetensors", "tokenizer.json", "credo_tokenizer.json"} {
		if b, err := os.ReadFile(filepath.Join(init, f)); err == nil {
			os.WriteFile(filepath.Join(badInit, f), b, 0o644)
		}
	}
	os.Symlink("/dev/zero", filepath.Join(badInit, "config.json"))
	outs := 0
	train := func(extra ...string) []string {
		outs++
		return append([]string{"train", "--init", init, "--out", filepath.Join(dir, "out", strconv.Itoa(outs)), "--steps", "1", "--prompts", "1", "--group", "2", "--max-tokens", "8", "--eval-prompts", "0"}, extra...)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"--config /dev/zero", train("--config", "/dev/zero"), "/dev/zero is a device"},
		{"--config a FIFO", train("--config", fifo), "fifo.json is a FIFO"},
		{"--config of 2 MB", train("--config", big), "more than"},
		{"rubric=/dev/zero", train("--judge", "name=q,url=http://127.0.0.1:1/v1,model=m,rubric=/dev/zero"), "/dev/zero is a device"},
		{"--train-config /dev/zero", []string{"compare", "--out", filepath.Join(dir, "c"), "--train-config", "/dev/zero"}, "/dev/zero is a device"},
		{"a model config.json that is /dev/zero", []string{"eval", "--model", badInit, "--task", "toolcall", "--prompts", "1"}, "is a device"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, errw := boundedCredo(t, "", 20*time.Second, tc.args...)
			if code != 2 || !strings.Contains(errw, tc.want) {
				t.Errorf("exit %d, want 2 at once and %q in:\n%s", code, tc.want, lastLines(errw, 5))
			}
		})
	}
	t.Run("--config - reads stdin", func(t *testing.T) {
		code, errw := boundedCredo(t, `{"steps": 1, "seed": 7}`, time.Minute, train("--config", "-")...)
		if code != 0 {
			t.Errorf("exit %d:\n%s", code, lastLines(errw, 5))
		}
	})
}

// lastLines is the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// TestInterruptDuringStartup: a command waiting at start-up on an input
// that does not come (--config - on a standard input nobody writes) ends
// on Ctrl-C: the first asks it to stop, the second ends the process at
// once (issue 26: reading /dev/zero as config ignored SIGINT and SIGTERM).
func TestInterruptDuringStartup(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$", "--", "train", "--config", "-", "--init", t.TempDir(), "--out", filepath.Join(t.TempDir(), "o"))
	cmd.Env = append(os.Environ(), mainEnv+"=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		t.Fatalf("credo did not wait for its standard input: %v", err)
	case <-time.After(500 * time.Millisecond):
	}
	for range 2 {
		cmd.Process.Signal(os.Interrupt)
		time.Sleep(100 * time.Millisecond)
	}
	select {
	case <-exited:
	case <-time.After(10 * time.Second): // a hang, not a timing check
		cmd.Process.Kill()
		t.Fatal("two Ctrl-C did not end credo during its start-up")
	}
}
