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
