package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/run"
)

// TestFocus runs the focus diagnostic on a converted tiny model and a
// samples.jsonl written with its tokenizer: the table, its failed row and
// the JSON; bad invocations exit 2.
func TestFocus(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	model := filepath.Join(dir, "hf")
	if code, _, stderr := credo(ctx, "import-gguf", "--gguf", tinyGGUF(t, dir), "--out", model); code != 0 {
		t.Fatal(stderr)
	}
	p, err := policy.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	resp := "lowercase words, with A capital"
	ids, offsets := p.Tok.Encode(resp)
	s := run.Sample{Step: 1, Prompt: "Write in lowercase.", Response: resp, Offsets: offsets,
		Verdicts: []run.Verdict{{Reward: "lowercase", Score: 0, Spans: []reward.Span{{Start: 22, End: 23}}}}}
	for _, id := range ids {
		s.Tokens = append(s.Tokens, p.Tok.Decode([]int32{id}))
	}
	line, _ := json.Marshal(s)
	samples := filepath.Join(dir, "samples.jsonl")
	if err := os.WriteFile(samples, append(line, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := credo(ctx, "focus", "--model", model, "--samples", dir)
	if code != 0 || !strings.Contains(stdout, "focus (1 samples, 0 skipped)") || !strings.Contains(stdout, "lowercase failed") ||
		!strings.Contains(stdout, `"uniform"`) {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--samples", samples}, "--model and --samples are required"},
		{[]string{"--model", model, "--samples", samples, "--step", "2"}, "no sample logged at step 2"},
		{[]string{"--model", model, "--samples", filepath.Join(dir, "none.jsonl")}, "--samples"},
		{[]string{"--model", filepath.Join(dir, "none"), "--samples", samples}, "--model"},
	} {
		if code, _, stderr := credo(ctx, append([]string{"focus"}, tc.args...)...); code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, %q", tc.args, code, stderr)
		}
	}
}
