package lab

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/credo-rl/credo/run"

	"github.com/credo-rl/credo/internal/shareddata"
	"github.com/credo-rl/credo/model"
	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/rl"
)

// TestQwenSmallPreset: size qwen-small without a tokenizer is refused by
// its setting; with the Qwen3 tokenizer it warms up (micro-batches of one
// sequence, the held-out accuracy chunked over the 151,936-token
// vocabulary) into a Qwen3-architecture checkpoint whose prompts carry
// the chat template's roles, and `train` runs a step from it.
func TestQwenSmallPreset(t *testing.T) {
	if testing.Short() {
		t.Skip("a 20M-parameter model with a 151,936-token head takes a minute")
	}
	c := DefaultWarmup()
	c.Task, c.Size, c.Demos, c.Steps, c.Batch = "toolcall", "qwen-small", 8, 1, 2
	c.Eval.Prompts, c.MicroBatch = 0, 1
	if _, _, err := WarmUp(context.Background(), c, "", io.Discard); err == nil || !strings.Contains(err.Error(), "tokenizer") {
		t.Fatalf("qwen-small without a tokenizer: %v, want an error naming the tokenizer setting", err)
	}
	c.Tokenizer = shareddata.Path(t, "tokenizers/qwen3")
	out := filepath.Join(t.TempDir(), "qwen")
	if _, _, err := WarmUp(context.Background(), c, out, io.Discard); err != nil {
		t.Fatal(err)
	}
	p, err := policy.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if mc := p.Model.Config; mc.ModelType != "qwen3" || mc.VocabSize != model.QwenVocab {
		t.Fatalf("checkpoint is %s with %d tokens, want qwen3 with %d", mc.ModelType, mc.VocabSize, model.QwenVocab)
	}
	text := p.Tok.Decode(p.Tok.EncodePrompt("What is 2+2?"))
	if !strings.Contains(text, "<|im_start|>user\nWhat is 2+2?<|im_end|>") || !strings.Contains(text, "<|im_start|>assistant") {
		t.Errorf("prompt rendered as %q: want Qwen3's chat template", text)
	}
	rc := rl.DefaultConfig()
	rc.Task, rc.Method, rc.Init, rc.Out = "toolcall", "grpo", out, filepath.Join(t.TempDir(), "run")
	rc.Steps, rc.PromptsPerStep, rc.Group, rc.MaxTokens = 1, 2, 2, 8
	rc.EvalEvery, rc.EvalPrompts, rc.CheckpointEvery, rc.MicroBatch = 0, 0, 0, 1
	tr, err := rl.New(context.Background(), rc, false, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	lines := 0
	if err := run.ReadLines(filepath.Join(rc.Out, run.MetricsFile), func([]byte) error { lines++; return nil }); err != nil {
		t.Fatal(err)
	}
	if lines != 1 {
		t.Errorf("%d metric lines for one step", lines)
	}
}
