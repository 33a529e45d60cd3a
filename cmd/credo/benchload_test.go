package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// loadEnv is the test process's environment without the variables the
// load guard reads, plus LOADAVG_FILE holding the fake load and extra.
func loadEnv(t *testing.T, loadavg string, extra ...string) []string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "loadavg")
	if err := os.WriteFile(f, []byte(loadavg+" 2/345 6789\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, kv := range os.Environ() {
		switch strings.SplitN(kv, "=", 2)[0] {
		case "FORCE", "MAX_LOAD", "CREDO_LOAD_GUARD", "LOADAVG_FILE":
		default:
			env = append(env, kv)
		}
	}
	return append(append(env, "LOADAVG_FILE="+f), extra...)
}

// runLoad runs a bash command line, returning its exit status, stdout and
// stderr.
func runLoad(t *testing.T, env []string, dir string, args ...string) (int, string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", args...)
	cmd.Env, cmd.Dir = env, dir
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0, stdout.String(), stderr.String()
	case errors.As(err, &exit):
		return exit.ExitCode(), stdout.String(), stderr.String()
	}
	t.Fatalf("bash %v: %v\n%s", args, err, stderr.String())
	return 0, "", ""
}

// TestLoadGuard: scripts/lib/load.sh's load_guard, sourced by every
// benchmark that publishes times (issue 53 item 4), refuses to start above
// MAX_LOAD (default 0.5) with a message naming the load, the threshold and
// how to force, and starts when forced (saying so), under the threshold,
// or when run by a script whose guard passed. A fake /proc/loadavg stands
// in for the machine's.
func TestLoadGuard(t *testing.T) {
	lib, err := filepath.Abs("../../scripts/lib/load.sh")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(lib); err != nil {
		t.Skip("no scripts/lib/load.sh beside the module")
	}
	script := `source "$0"; load_guard bench-test.sh; echo measured; load_note end`
	for _, tc := range []struct {
		name, load string
		env        []string
		rc         int
		out, err   []string // in stdout, in stderr
		notOut     []string
	}{
		{name: "busy", load: "1.73 1.20 0.90", rc: 3,
			err:    []string{"bench-test.sh: the 1-minute load average is 1.73 (1.73 1.20 0.90", "above MAX_LOAD=0.5", "FORCE=1", "MAX_LOAD=<higher>"},
			notOut: []string{"measured"}},
		{name: "busy, forced", load: "1.73 1.20 0.90", env: []string{"FORCE=1"},
			out: []string{"# start: load 1.73 1.20 0.90 (1, 5, 15 min)", "# FORCE=1: started at a 1-minute load of 1.73, above MAX_LOAD=0.5", "measured", "# end: load 1.73 1.20 0.90"}},
		{name: "busy, higher MAX_LOAD", load: "1.73 1.20 0.90", env: []string{"MAX_LOAD=2"},
			out: []string{"# start: load 1.73", "measured"}, notOut: []string{"FORCE=1"}},
		{name: "busy, lower MAX_LOAD", load: "0.40 0.20 0.10", env: []string{"MAX_LOAD=0.25"}, rc: 3,
			err: []string{"load average is 0.40", "above MAX_LOAD=0.25"}, notOut: []string{"measured"}},
		{name: "quiet", load: "0.12 0.30 0.45",
			out: []string{"# start: load 0.12 0.30 0.45 (1, 5, 15 min)", "commit ", "measured", "# end: load 0.12 0.30 0.45"}, notOut: []string{"FORCE"}},
		{name: "at the threshold", load: "0.50 0.30 0.45", out: []string{"measured"}},
		{name: "run by a guarded script", load: "1.73 1.20 0.90", env: []string{"CREDO_LOAD_GUARD=bench-outer.sh at load 0.10 0.20 0.30"},
			out: []string{"# start: load 1.73", "# run by bench-outer.sh at load 0.10 0.20 0.30", "measured"}, notOut: []string{"FORCE"}},
		{name: "MAX_LOAD not a number", load: "0.10 0.10 0.10", env: []string{"MAX_LOAD=high"}, rc: 2,
			err: []string{"MAX_LOAD=high is not a number"}, notOut: []string{"measured"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rc, out, errOut := runLoad(t, loadEnv(t, tc.load, tc.env...), t.TempDir(), "-euo", "pipefail", "-c", script, lib)
			if rc != tc.rc {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", rc, tc.rc, out, errOut)
			}
			for _, w := range tc.out {
				if !strings.Contains(out, w) {
					t.Errorf("stdout lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tc.err {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr lacks %q:\n%s", w, errOut)
				}
			}
			for _, w := range tc.notOut {
				if strings.Contains(out, w) {
					t.Errorf("stdout holds %q:\n%s", w, out)
				}
			}
		})
	}
}

// TestBenchScriptsRefuseBusy: every script that publishes timings runs the
// load guard before any work (no build, no download, no peak measurement),
// so on a busy machine it exits 3 at once with the guard's message.
func TestBenchScriptsRefuseBusy(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range [][]string{
		{"bench.sh"},
		{"bench-sample.sh"},
		{"bench-sample-real.sh"},
		{"bench-xla.sh"},
		{"scaling.sh"},
		{"phases.sh", "runs/none"},
		{"fresh-times.sh"},
		{"ab-step.sh", "a", "b", "runs/none"},
	} {
		t.Run(s[0], func(t *testing.T) {
			path := filepath.Join(root, "scripts", s[0])
			if _, err := os.Stat(path); err != nil {
				t.Skipf("no scripts/%s beside the module", s[0])
			}
			// PLUGIN and CREDO_PEAK_GFLOPS set: were the guard late, the
			// script would not start by fetching or measuring them.
			env := loadEnv(t, "3.10 2.50 2.00", "PLUGIN=/nonexistent", "CREDO_PEAK_GFLOPS=1")
			rc, out, errOut := runLoad(t, env, root, append([]string{path}, s[1:]...)...)
			if rc != 3 || !strings.Contains(errOut, s[0]+": the 1-minute load average is 3.10") || !strings.Contains(errOut, "FORCE=1") {
				t.Errorf("exit %d, want 3 with the guard's message\nstdout:\n%s\nstderr:\n%s", rc, out, errOut)
			}
		})
	}
}
