package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInvokedAs: hints name the binary as it was typed where a shell finds
// it again, else by its absolute path (issue 49: hints said credo where
// only bin/credo worked).
func TestInvokedAs(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip("no executable path on this system:", err)
	}
	for _, tc := range []struct{ arg0, want string }{
		{"bin/credo", "bin/credo"},
		{"./credo", "./credo"},
		{"/opt/x/credo", "/opt/x/credo"},
		{"sh", "sh"}, // a name on PATH
		{"no-such-credo-binary-on-path", exe},
		{"", exe},
	} {
		if got := invokedAs(tc.arg0); got != tc.want {
			t.Errorf("invokedAs(%q) = %q, want %q", tc.arg0, got, tc.want)
		}
	}
}

// TestHintsNameTheBinary: every hint that names a command line (the
// Ctrl-C resume line, --help, the command list) names the binary as
// invoked, quoted for a shell, and a mistyped command gets the one meant.
func TestHintsNameTheBinary(t *testing.T) {
	ctx := context.Background()
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	out := filepath.Join(t.TempDir(), "t")
	for _, tc := range []struct {
		ctx  context.Context
		prog string
		args []string
		code int
		want string
	}{
		{ctx, "bin/credo", []string{"trian"}, 2, `unknown command "trian": did you mean "train"? (bin/credo help lists the commands)`},
		{ctx, "bin/credo", []string{"chess"}, 2, `unknown command "chess" (bin/credo help lists the commands)`},
		{ctx, "bin/credo", []string{"train", "--stpes", "3"}, 2, "unknown flag --stpes: did you mean --steps?\nits flags: bin/credo train --help\n"},
		{ctx, "/my tools/credo", []string{"eval"}, 2, "its flags: '/my tools/credo' eval --help\n"},
		{cancelled, "bin/credo", []string{"train", "--init", tinyCheckpoint(t), "--out", out, "--steps", "2"}, 130, "continue with: bin/credo train --resume --out " + out},
	} {
		var o, e bytes.Buffer
		code := mainAs(tc.ctx, tc.prog, tc.args, &o, &e)
		if code != tc.code || !strings.Contains(e.String(), tc.want) {
			t.Errorf("%s %q: exit %d, stderr %q; want exit %d and %q", tc.prog, tc.args, code, e.String(), tc.code, tc.want)
		}
	}
	if got := (interrupted{"continue with:", []string{"sft", "--out", "a b"}}).Error(); got != "continue with: credo sft --out 'a b'" {
		t.Errorf("interrupted.Error() = %q", got)
	}
}

// TestHelpTrainTask: train's --help does not call toolcall --task's
// default, since without --task train takes --init's task (issue 49).
func TestHelpTrainTask(t *testing.T) {
	_, out, _ := credo(context.Background(), "help", "train")
	i := strings.Index(out, "\n  --task string\n")
	if i < 0 {
		t.Fatalf("help train has no --task:\n%s", out)
	}
	entry, _, _ := strings.Cut(out[i+1:], "\n  --task-seed")
	if strings.Contains(entry, `(default "toolcall")`) || !strings.Contains(entry, "the task --init was trained on") {
		t.Errorf("help train's --task: %q", entry)
	}
}
