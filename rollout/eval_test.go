package rollout

import (
	"context"
	"strings"
	"testing"

	"github.com/credo-rl/credo/model"
	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/task"
	"github.com/credo-rl/credo/tokenizer"
)

// TestEvaluatePromptsBatches: in batches (prompts of similar length
// together) the greedy responses, scores and progress come back in
// prompt order, as from one batch.
func TestEvaluatePromptsBatches(t *testing.T) {
	tok, err := tokenizer.NewBytes()
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.New(model.Tiny(tok.VocabSize()), 1)
	if err != nil {
		t.Fatal(err)
	}
	p := &policy.Policy{Model: m, Tok: tok}
	var prompts []task.Prompt
	for i, n := range []int{9, 1, 30, 4, 17, 2, 12} {
		prompts = append(prompts, task.Prompt{ID: string(rune('a' + i)), Text: strings.Repeat("ab ", n)})
	}
	length := fnVerifier{"length", func(_ context.Context, resp string) (reward.Verdict, error) {
		return reward.Verdict{Score: float64(len(resp))}, nil
	}}
	vs := []reward.Verifier{length}
	whole, err := EvaluatePrompts(context.Background(), p, prompts, vs, EvalConfig{MaxTokens: 6, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	var progress []int
	c := EvalConfig{MaxTokens: 6, Workers: 2, Batch: 3, Progress: func(done, total int) {
		if total != len(prompts) {
			t.Errorf("progress total %d", total)
		}
		progress = append(progress, done)
	}}
	parts, err := EvaluatePrompts(context.Background(), p, prompts, vs, c)
	if err != nil {
		t.Fatal(err)
	}
	if len(parts.Responses) != len(prompts) || len(whole.Responses) != len(prompts) {
		t.Fatalf("%d and %d responses to %d prompts", len(parts.Responses), len(whole.Responses), len(prompts))
	}
	for i := range prompts {
		if parts.Prompts[i].ID != prompts[i].ID || parts.Responses[i].Prompt != i {
			t.Errorf("response %d answers %s (index %d)", i, parts.Prompts[i].ID, parts.Responses[i].Prompt)
		}
		if a, b := parts.Responses[i].Text, whole.Responses[i].Text; a != b {
			t.Errorf("prompt %d: %q in batches, %q at once", i, a, b)
		}
		if *parts.PerPrompt["length"][i] != float64(len(parts.Responses[i].Text)) {
			t.Errorf("prompt %d: score %v for %q", i, *parts.PerPrompt["length"][i], parts.Responses[i].Text)
		}
	}
	if parts.Greedy["length"] != whole.Greedy["length"] || parts.Verdicts["length"] != len(prompts) {
		t.Errorf("mean %v in batches, %v at once; %d verdicts", parts.Greedy, whole.Greedy, parts.Verdicts["length"])
	}
	if len(progress) != 3 || progress[0] != 3 || progress[2] != len(prompts) {
		t.Errorf("progress %v", progress)
	}
}
