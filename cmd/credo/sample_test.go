package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/credo-rl/credo/tokenizer"
)

// TestSampleRunFolder: sample takes a run folder for its newest checkpoint,
// as eval does (issue 49: it was refused, "holds neither
// credo_tokenizer.json …"), and its responses never hold a role token
// unless --raw asks (a sample began with a literal <|assistant|>: the
// policy had sampled it).
func TestSampleRunFolder(t *testing.T) {
	ctx := context.Background()
	run := filepath.Join(t.TempDir(), "run")
	step := filepath.Join(run, "checkpoints", "step-000003")
	if err := os.CopyFS(step, os.DirFS(tinyCheckpoint(t))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(step, "state.json"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A hot temperature on random weights: every token is about as likely.
	args := []string{"sample", "--model", run, "--prompt", "Add each pair, one line each:\n1+2", "--n", "16", "--max-tokens", "16", "--temperature", "5"}
	code, out, errw := credo(ctx, args...)
	if code != 0 || strings.Count(out, "--- response ") != 16 {
		t.Fatalf("sample --model <run folder>: exit %d\n%s%s", code, out, errw)
	}
	for _, role := range []string{"<|bos|>", "<|user|>", "<|assistant|>", "<|pad|>"} {
		if strings.Contains(out, role) {
			t.Errorf("a response holds the role token %s:\n%s", role, out)
		}
	}
	if code, _, errw := credo(ctx, append(args, "--raw")...); code != 0 {
		t.Errorf("sample --raw: exit %d\n%s", code, errw)
	}
	if code, _, errw := credo(ctx, "sample", "--model", filepath.Join(t.TempDir(), "none"), "--prompt", "x"); code != 2 || !strings.Contains(errw, "--model") {
		t.Errorf("sample of a missing folder: exit %d, %q", code, errw)
	}
}

// TestRoleTokens: the byte tokenizer's template tokens and PAD, not EOS.
func TestRoleTokens(t *testing.T) {
	tok, err := tokenizer.NewBytes()
	if err != nil {
		t.Fatal(err)
	}
	var want []int32
	for _, name := range []string{tokenizer.BOSName, tokenizer.UserName, tokenizer.AssistantName, tokenizer.PADName} {
		id, _ := tok.Special(name)
		want = append(want, id)
	}
	if got := roleTokens(tok); !slices.Equal(got, want) {
		t.Errorf("roleTokens = %v, want %v", got, want)
	}
}
