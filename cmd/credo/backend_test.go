package main

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/credo-rl/credo/model"
)

// TestBackendFlag: every command that builds a model takes --backend; a
// bad or missing backend is a usage error that says what is known; a good
// one becomes the process's (CREDO_BACKEND), and --version lists the
// backends compiled in.
func TestBackendFlag(t *testing.T) {
	t.Setenv(model.BackendEnv, "") // restored after: the flag sets it
	t.Setenv("GOMLX_BACKEND", "")
	t.Setenv("GOMLX_NO_AUTO_INSTALL", "")
	ctx := context.Background()
	for _, cmd := range [][]string{{"sft"}, {"train"}, {"compare"}, {"demo"}, {"calibrate"}, {"eval"}, {"sample"},
		{"serve-model"}, {"serve"}, {"blocks"}, {"focus"}, {"prm", "train"}, {"prm", "eval"}} {
		code, out, errw := credo(ctx, append([]string{"help"}, cmd...)...)
		if code != 0 || !strings.Contains(out, "\n  --backend ") {
			t.Errorf("help %s: exit %d, --backend not listed (stderr %q)", strings.Join(cmd, " "), code, errw)
		}
	}
	compiled := model.CompiledBackends()
	cases := []struct {
		arg  string
		want string // in stderr; "" for a good choice
	}{
		{"tpu", `unknown backend "tpu" (known: go, xla[:PLUGIN])`},
		{"go:cpu", "takes no plugin"},
		{"go", ""},
	}
	if !slices.Contains(compiled, "xla") {
		cases = append(cases, struct{ arg, want string }{"xla:cpu", "not compiled into this binary (it has go): build with CGO_ENABLED=1 go build -tags xla"})
	}
	for _, c := range cases {
		// sample fails after the flags (no --model), so a good choice is seen
		// by what it left in the environment.
		code, _, errw := credo(ctx, "sample", "--backend", c.arg)
		if c.want == "" {
			if strings.Contains(errw, "backend") || os.Getenv(model.BackendEnv) != c.arg || os.Getenv("GOMLX_BACKEND") != c.arg || os.Getenv("GOMLX_NO_AUTO_INSTALL") != "1" {
				t.Errorf("--backend %s: exit %d, %q; env %s=%q", c.arg, code, errw, model.BackendEnv, os.Getenv(model.BackendEnv))
			}
			continue
		}
		if code != exitUsage || !strings.Contains(errw, c.want) {
			t.Errorf("--backend %s: exit %d, %q; want exit 2 saying %q", c.arg, code, errw, c.want)
		}
	}
	code, out, _ := credo(ctx, "--version")
	if code != 0 || !strings.Contains(out, "backends: "+strings.Join(compiled, ", ")) {
		t.Errorf("--version: exit %d, %q; want the backends %v", code, out, compiled)
	}
}

// TestRecordBackend: backend.json names the binary and the backend a
// model ran on.
func TestRecordBackend(t *testing.T) {
	m, err := model.New(model.Tiny(16), 1, model.OnBackend(model.Backend{Name: "go"}))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := recordBackend(dir, m); err != nil {
		t.Fatal(err)
	}
	r, err := readBackend(dir)
	if err != nil {
		t.Fatal(err)
	}
	if r.Backend.Name != "go" || !strings.HasPrefix(r.Credo, "credo") {
		t.Errorf("backend.json = %+v, want credo's version and the go backend", r)
	}
	if err := os.WriteFile(dir+"/"+backendFile, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readBackend(dir); err == nil || !strings.Contains(err.Error(), backendFile) {
		t.Errorf("a malformed backend.json: %v, want an error naming it", err)
	}
}
