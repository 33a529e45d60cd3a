package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/credo-rl/credo/gguf/gguftest"
	"github.com/credo-rl/credo/policy"
)

// TestImportGGUF converts a tiny llama GGUF written by the test, then
// checks the folder loads as a policy and samples; bad invocations and
// bad files exit 2 and 1 with the reason.
func TestImportGGUF(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	in := tinyGGUF(t, dir)
	out := filepath.Join(dir, "hf")
	code, stdout, stderr := credo(ctx, "import-gguf", "--gguf", in, "--out", out, "--dtype", "bfloat16")
	if code != 0 || !strings.Contains(stdout, "2 layers, hidden 64, 4 heads (2 key/value), vocabulary 264, tied embeddings") ||
		!strings.Contains(stdout, "Q4_1 14") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
	p, err := policy.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if p.Model.Config.TorchDtype != "bfloat16" {
		t.Errorf("stored as %s, want bfloat16", p.Model.Config.TorchDtype)
	}
	if code, stdout, _ = credo(ctx, "sample", "--model", out, "--prompt", "hi", "--max-tokens", "4"); code != 0 || !strings.Contains(stdout, "--- response 1") {
		t.Errorf("sample of the converted folder: exit %d, %s", code, stdout)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--gguf", in}, 2, "--gguf and --out are required"},
		{[]string{"--gguf", in, "--out", filepath.Join(dir, "x"), "--dtype", "int8"}, 2, `--dtype "int8"`},
		{[]string{"--gguf", in, "--out", out}, 2, "pass --replace"},
		{[]string{"--gguf", filepath.Join(dir, "none.gguf"), "--out", filepath.Join(dir, "y")}, 2, "no such file"}, // a name that points nowhere: bad usage
		{[]string{"--gguf", filepath.Join(dir, "hf", "config.json"), "--out", filepath.Join(dir, "z")}, 1, "not a GGUF file"},
	} {
		code, _, stderr := credo(ctx, append([]string{"import-gguf"}, tc.args...)...)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, stderr, tc.code, tc.want)
		}
	}
	if code, stdout, _ := credo(ctx, "help", "import-gguf"); code != 0 || !strings.Contains(stdout, "--dtype string") || !strings.Contains(stdout, "--replace") {
		t.Errorf("help import-gguf: exit %d\n%s", code, stdout)
	}
	if code, _, _ := credo(ctx, "import-gguf", "--gguf", in, "--out", out, "--replace"); code != 0 {
		t.Errorf("--replace: exit %d", code)
	}
}

// tinyGGUF writes the test writer's tiny llama into dir and returns its path.
func tinyGGUF(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "tiny.gguf")
	if err := os.WriteFile(path, gguftest.TinyLlama(gguftest.SmallLlama).File, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
