package main

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoGoMLXDocs: every package whose doc.go says it "needs no GoMLX"
// has no GoMLX package among its dependencies (issue 49: such packages are
// safe to import from another module, where credo's replace of GoMLX's
// compute does not apply), and credit, reward, task and service say so.
func TestNoGoMLXDocs(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	root := filepath.Join("..", "..")
	var pkgs []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "third_party" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.Name() != "doc.go" {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.Contains(string(b), "needs no GoMLX") {
			rel, _ := filepath.Rel(root, filepath.Dir(path))
			pkgs = append(pkgs, "./"+filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"./credit", "./reward", "./task", "./service"} {
		found := false
		for _, p := range pkgs {
			found = found || p == want
		}
		if !found {
			t.Errorf("%s/doc.go does not say it needs no GoMLX", want)
		}
	}
	cmd := exec.Command(goBin, append([]string{"list", "-f", `{{.ImportPath}}: {{join .Deps " "}}`}, pkgs...)...)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("go list: %v", err) // a toolchain that cannot list (offline, older go) is no finding
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, deps, _ := strings.Cut(line, ": ")
		for _, d := range strings.Fields(deps) {
			if strings.Contains(d, "gomlx") {
				t.Errorf("%s says it needs no GoMLX but imports %s", pkg, d)
				break
			}
		}
	}
}
