package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestMakeInstall: `make install` installs credo into GOBIN, else GOPATH's
// bin, says where, and says how to reach it when that folder is not on
// PATH (issue 49: README's commands said credo, the binary was bin/credo).
// A stand-in go records the install, so the test compiles nothing.
func TestMakeInstall(t *testing.T) {
	mk, err := exec.LookPath("make")
	if err != nil {
		t.Skip("no make on this machine")
	}
	if _, err := os.Stat("../../Makefile"); err != nil {
		t.Skip("no Makefile beside the module")
	}
	for _, tc := range []struct {
		name, gobin string
		onPath      bool
	}{
		{"GOBIN set, on PATH", "gobin", true},
		{"GOPATH's bin, not on PATH", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tmp := t.TempDir()
			fake := filepath.Join(tmp, "fakego")
			os.Mkdir(fake, 0o755)
			gopath := filepath.Join(tmp, "gopath")
			gobin := ""
			if tc.gobin != "" {
				gobin = filepath.Join(tmp, tc.gobin)
			}
			script := "#!/bin/sh\ncase \"$1 $2\" in\n" +
				"'env GOBIN') echo '" + gobin + "';;\n" +
				"'env GOPATH') echo '" + gopath + "';;\n" +
				"'install -buildvcs=auto') mkdir -p \"$GOBIN\" && echo \"$*\" > \"$GOBIN/credo\";;\n" +
				"*) echo \"unexpected go $*\" >&2; exit 3;;\nesac\n"
			if err := os.WriteFile(filepath.Join(fake, "go"), []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
			want := filepath.Join(gopath, "bin")
			if gobin != "" {
				want = gobin
			}
			path := fake + string(os.PathListSeparator) + os.Getenv("PATH")
			if tc.onPath {
				path = want + string(os.PathListSeparator) + path
			}
			cmd := exec.Command(mk, "--no-print-directory", "-C", "../..", "install")
			cmd.Env = append(os.Environ(), "PATH="+path)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("make install: %v\n%s", err, out)
			}
			got, err := os.ReadFile(filepath.Join(want, "credo"))
			if err != nil || !strings.Contains(string(got), "./cmd/credo") {
				t.Errorf("nothing installed into %s: %v %q", want, err, got)
			}
			if !strings.Contains(string(out), "installed "+filepath.Join(want, "credo")) {
				t.Errorf("make install does not say where:\n%s", out)
			}
			if hint := strings.Contains(string(out), "is not on PATH"); hint == tc.onPath {
				t.Errorf("the PATH hint shown %v, want %v:\n%s", hint, !tc.onPath, out)
			}
		})
	}
}

// TestVenvProgress: scripts/python/venv.sh says it is still at work while
// pip is silent (issue 49: ~215 s of a silent install), prints nothing but
// the environment's path on stdout, and leaves no heartbeat behind. A
// stand-in Python makes a venv whose pip sleeps, so nothing is downloaded.
func TestVenvProgress(t *testing.T) {
	src, err := os.ReadFile("../../scripts/python/venv.sh")
	if err != nil {
		t.Skip("no scripts/python/venv.sh beside the module")
	}
	if _, err := exec.LookPath("flock"); err != nil {
		t.Skip("no flock on this machine")
	}
	tmp := t.TempDir()
	scripts := filepath.Join(tmp, "scripts")
	os.Mkdir(scripts, 0o755)
	fakePy := filepath.Join(tmp, "fakepython")
	py := "#!/bin/sh\n[ \"$1\" = -c ] && exit 0\n" + // -c pass
		"[ \"$1 $2\" = '-m venv' ] || exit 3\nmkdir -p \"$3/bin\"\n" +
		"printf '#!/bin/sh\\necho \"Collecting fake==1.0\"\\nsleep 2.5\\n' > \"$3/bin/pip\"\nchmod +x \"$3/bin/pip\"\n"
	for name, body := range map[string]string{
		"venv.sh":               string(src),
		"requirements-fake.txt": "# python: " + fakePy + "\nfake==1.0\n",
	} {
		if err := os.WriteFile(filepath.Join(scripts, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(fakePy, []byte(py), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", filepath.Join(scripts, "venv.sh"), "fake")
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+filepath.Join(tmp, "cache"), "CREDO_VENV_HEARTBEAT=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("venv.sh fake: %v\n%s", err, stderr.String())
	}
	want := filepath.Join(tmp, "cache", "credo", "venv-fake")
	if strings.TrimSpace(string(out)) != want {
		t.Errorf("stdout %q, want the path %s alone", out, want)
	}
	e := stderr.String()
	for _, w := range []string{"venv.sh: installing", "Collecting fake==1.0", "venv.sh: still installing fake (", "venv.sh: installed fake in"} {
		if !strings.Contains(e, w) {
			t.Errorf("stderr lacks %q:\n%s", w, e)
		}
	}
	// A second call reuses the environment, silently.
	cmd = exec.Command("bash", filepath.Join(scripts, "venv.sh"), "fake")
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+filepath.Join(tmp, "cache"))
	if b, err := cmd.CombinedOutput(); err != nil || strings.TrimSpace(string(b)) != want {
		t.Errorf("second call: %v %q", err, b)
	}
}

// TestHeartbeat: scripts/heartbeat.sh, which the Makefile's compile steps
// run under (issue 49: 197 s of a silent first build), passes the
// command's output and exit status through, says on stderr that it is
// still at work when the command outlasts CREDO_HEARTBEAT seconds, and
// leaves no ticker holding stderr once the command ends: a caller reading
// stderr to its end is not kept waiting for the next tick.
func TestHeartbeat(t *testing.T) {
	script, err := filepath.Abs("../../scripts/heartbeat.sh")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(script); err != nil {
		t.Skip("no scripts/heartbeat.sh beside the module")
	}
	run := func(every, caller string) (stdout, stderr string, code int, took time.Duration) {
		t.Helper()
		cmd := exec.Command("bash", "-c", caller)
		cmd.Env = append(os.Environ(), "HB="+script, "CREDO_HEARTBEAT="+every)
		var o, e strings.Builder
		cmd.Stdout, cmd.Stderr = &o, &e
		start := time.Now()
		err := cmd.Run()
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			t.Fatalf("%s: %v", caller, err)
		}
		return o.String(), e.String(), cmd.ProcessState.ExitCode(), time.Since(start)
	}

	// A command that outlasts a 1 s interval: heartbeat lines on stderr
	// only, its own output as it wrote it, its status 7.
	out, errOut, code, _ := run("1", `"$HB" "make demo: still compiling" sh -c 'echo built; echo warning >&2; sleep 2.5; exit 7'`)
	if code != 7 {
		t.Errorf("exit status %d, want the command's 7", code)
	}
	if out != "built\n" {
		t.Errorf("stdout %q, want the command's alone", out)
	}
	if !strings.Contains(errOut, "warning\n") || !regexp.MustCompile(`(?m)^make demo: still compiling \(\d+ s\) \.\.\.$`).MatchString(errOut) {
		t.Errorf("stderr lacks the command's line or a heartbeat:\n%s", errOut)
	}

	// Under set -euo pipefail: a failure stops the caller with its status,
	// a success lets it go on; a quick command prints no heartbeat, and the
	// 30 s ticker does not outlive it.
	_, errOut, code, took := run("30", `set -euo pipefail; "$HB" "x: still at work" true; echo went on >&2; "$HB" "x: still at work" false; echo unreachable >&2`)
	if code != 1 || errOut != "went on\n" {
		t.Errorf("status %d, stderr %q: want 1 and %q", code, errOut, "went on\n")
	}
	if took > 15*time.Second {
		t.Errorf("two quick commands took %v: the ticker held stderr open", took)
	}

	// Without a command: usage, status 2.
	if _, errOut, code, _ := run("30", `"$HB" "x"`); code != 2 || !strings.Contains(errOut, "usage: heartbeat.sh") {
		t.Errorf("no command: status %d, stderr %q", code, errOut)
	}
}

// TestMakeCompilesWithHeartbeat: the Makefile's compile steps in demo and
// test (go build, go vet) run under scripts/heartbeat.sh (make -n prints
// the commands without running them).
func TestMakeCompilesWithHeartbeat(t *testing.T) {
	mk, err := exec.LookPath("make")
	if err != nil {
		t.Skip("no make on this machine")
	}
	if _, err := os.Stat("../../Makefile"); err != nil {
		t.Skip("no Makefile beside the module")
	}
	for target, step := range map[string]string{"demo": "go build", "test": "go vet"} {
		out, err := exec.Command(mk, "--no-print-directory", "-n", "-C", "../..", target).CombinedOutput()
		if err != nil {
			t.Fatalf("make -n %s: %v\n%s", target, err, out)
		}
		found := false
		for _, line := range strings.Split(string(out), "\n") {
			if !strings.Contains(line, step+" ") {
				continue
			}
			found = true
			if !strings.HasPrefix(line, "scripts/heartbeat.sh \"make ") {
				t.Errorf("make %s runs %q without scripts/heartbeat.sh:\n%s", target, step, line)
			}
		}
		if !found {
			t.Errorf("make -n %s runs no %s:\n%s", target, step, out)
		}
	}
}
