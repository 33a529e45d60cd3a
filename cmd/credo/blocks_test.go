package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestBlocks runs the block diagnostic on a converted tiny model: the
// report's two lines and its JSON; bad invocations exit 2.
func TestBlocks(t *testing.T) {
	ctx := context.Background()
	out := filepath.Join(t.TempDir(), "hf")
	if code, _, stderr := credo(ctx, "import-gguf", "--gguf", tinyGGUF(t, t.TempDir()), "--out", out); code != 0 {
		t.Fatal(stderr)
	}
	code, stdout, stderr := credo(ctx, "blocks", "--model", out, "--task", "toolcall", "--prompts", "3")
	if code != 0 || !strings.Contains(stdout, "blocks (3 test prompts") || !strings.Contains(stdout, `"right_over_wrong"`) ||
		!strings.Contains(stdout, "without call") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--task", "ifeval"}, "--model is required"},
		{[]string{"--model", out, "--prompts", "1"}, "at least 2"},
		{[]string{"--model", out, "--task", "chess"}, "chess"},
	} {
		if code, _, stderr := credo(ctx, append([]string{"blocks"}, tc.args...)...); code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, %q", tc.args, code, stderr)
		}
	}
}
