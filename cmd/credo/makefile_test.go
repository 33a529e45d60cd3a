package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
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
