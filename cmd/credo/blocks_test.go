package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/credo-rl/credo/replay"
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

// TestBlocksInWords: sft's closing line says in words whether the policy
// reads its blocks, with the figure it rests on.
func TestBlocksInWords(t *testing.T) {
	for _, tc := range []struct {
		gain float64
		want string
	}{
		{0.01, "hardly reads"},
		{0.098, "reads its information blocks a little"},
		{0.30, "reads its information blocks (with"},
	} {
		got := blocksInWords(replay.BlockReport{RightOverWrong: tc.gain})
		if !strings.Contains(got, tc.want) || !strings.Contains(got, fmt.Sprintf("%.3f nats per token", tc.gain)) {
			t.Errorf("%.3f: %q, want %q", tc.gain, got, tc.want)
		}
	}
}
