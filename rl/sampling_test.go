package rl

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/run"
	"github.com/credo-rl/credo/task"
)

// halfTask's reward is constant on even prompts (no variance, nothing to
// learn) and the first byte's parity on odd ones (about half of an
// untrained policy's answers): dynamic sampling should keep odd prompts.
type halfTask struct{}

func (halfTask) Name() string { return "test-half" }
func (halfTask) Prompt(split task.Split, i int) task.Prompt {
	return task.Prompt{ID: fmt.Sprintf("%s-%d", split, i), Text: fmt.Sprintf("say %d", i%5), Ref: i}
}
func (halfTask) Rewards() []reward.Verifier                     { return []reward.Verifier{halfReward{}} }
func (halfTask) Demos(int, uint64, task.DemoConfig) []task.Demo { return nil }

type halfReward struct{}

func (halfReward) Name() string { return "half" }
func (halfReward) Verify(_ context.Context, p reward.Prompt, r string) (reward.Verdict, error) {
	if p.Ref.(int)%2 == 0 || r == "" {
		return reward.Verdict{Score: 1}, nil
	}
	return reward.Verdict{Score: float64(r[0] % 2)}, nil
}

func init() {
	task.Register("test-half", func(task.Config) (task.Task, error) { return halfTask{}, nil })
}

// TestDynamicSampling: with the filter, every group the update sees varies,
// the batch is filled from extra rounds, the shares of zero-variance groups
// before and after are logged, and the first round is the one a run
// without the filter samples.
func TestDynamicSampling(t *testing.T) {
	c := microConfig(t, "test-half", "gdpo")
	c.Steps, c.PromptsPerStep, c.Group, c.MaxTokens, c.EvalPrompts = 1, 4, 4, 4, 0
	c.DynamicSampling = 4
	tr := newTrainer(t, c, false)
	all, kept, m, err := tr.sampleStep(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(kept.Prompts) != 4 || len(kept.Responses) != 16 || len(kept.Verdicts[0]) != 16 {
		t.Fatalf("kept %d groups (%d responses), want 4 (16)", len(kept.Prompts), len(kept.Responses))
	}
	varies := kept.VaryingGroups()
	for g, p := range kept.Prompts {
		if p.Ref.(int)%2 == 0 || !varies[g] {
			t.Errorf("kept group %d (prompt %s) has no variance", g, p.ID)
		}
		for i, r := range kept.Responses {
			if r.Prompt == g && kept.PromptOf(i).ID != p.ID {
				t.Errorf("response %d of group %d answers %s", i, g, kept.PromptOf(i).ID)
			}
		}
	}
	before, after := m[run.RewardKey("half", "frac_reward_zero_std")], m[run.RewardKey("half", "frac_reward_zero_std_kept")]
	if after != 0 || before < 0.4 || m["sampling/kept"] != 4 || m["sampling/groups"] != float64(len(all.Prompts)) || m["sampling/rounds"] < 2 {
		t.Errorf("metrics %v", m)
	}
	// The first round is what a run without the filter samples.
	c2 := c
	c2.DynamicSampling = 0
	c2.Out += "-plain"
	plain, kept2, m2, err := newTrainer(t, c2, false).sampleStep(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(plain.Prompts) != 4 || len(kept2.Prompts) != 4 || len(m2) != 0 {
		t.Fatalf("without the filter: %d groups sampled, %d kept, metrics %v", len(plain.Prompts), len(kept2.Prompts), m2)
	}
	for i := range plain.Responses {
		if plain.Responses[i].Text != all.Responses[i].Text || plain.PromptOf(i).ID != all.PromptOf(i).ID {
			t.Fatalf("response %d differs from the unfiltered run's first round", i)
		}
	}
	// A whole run trains on it, deterministically.
	if err := tr.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	ms := readMetrics(t, c.Out)
	if v, ok := ms[0]["sampling/kept"].(float64); !ok || v != 4 || math.IsNaN(ms[0]["loss/total"].(float64)) {
		t.Errorf("run metrics %v", ms[0])
	}
	bad := c
	bad.DynamicSampling = -1
	if bad.Validate() == nil {
		t.Error("dynamic_sampling -1 accepted")
	}
}
