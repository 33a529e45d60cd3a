package rl

import (
	"context"
	"fmt"
	"testing"

	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/task"
)

// firstByteTask rewards responses whose first byte is below 128: about half
// of an untrained byte-level policy's answers, so every group varies and
// the policy gradient has a clear direction.
type firstByteTask struct{}

func (firstByteTask) Name() string { return "test-first-byte" }
func (firstByteTask) Prompt(split task.Split, i int) task.Prompt {
	return task.Prompt{ID: fmt.Sprintf("%s-%d", split, i), Text: fmt.Sprintf("say something %d", i%7)}
}
func (firstByteTask) Rewards() []reward.Verifier                     { return []reward.Verifier{asciiFirst{}} }
func (firstByteTask) Demos(int, uint64, task.DemoConfig) []task.Demo { return nil }

type asciiFirst struct{}

func (asciiFirst) Name() string { return "ascii" }
func (asciiFirst) Verify(_ context.Context, _ reward.Prompt, r string) (reward.Verdict, error) {
	if r != "" && r[0] < 128 {
		return reward.Verdict{Score: 1, Spans: []reward.Span{{Start: 0, End: 1}}}, nil
	}
	return reward.Verdict{Spans: []reward.Span{{Start: 0, End: 1}}}, nil
}

func init() {
	task.Register("test-first-byte", func(task.Config) (task.Task, error) { return firstByteTask{}, nil })
}

// TestPolicyLearns: the loop pushes a reward up. With GDPO on a reward
// that decides on the first token, 30 steps take the mean from about one
// half to most answers; a sign or alignment error would push it down.
func TestPolicyLearns(t *testing.T) {
	for _, method := range []string{"gdpo", "span"} {
		t.Run(method, func(t *testing.T) {
			c := microConfig(t, "test-first-byte", method)
			c.Steps, c.PromptsPerStep, c.Group, c.MaxTokens = 30, 4, 8, 4
			c.EvalPrompts, c.Peak = 0, 1e-2
			tr := newTrainer(t, c, false)
			if err := tr.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			ms := readMetrics(t, c.Out)
			first := (ms[0]["reward/ascii/mean"].(float64) + ms[1]["reward/ascii/mean"].(float64)) / 2
			last := (ms[28]["reward/ascii/mean"].(float64) + ms[29]["reward/ascii/mean"].(float64)) / 2
			t.Logf("%s: reward %.2f in the first two steps, %.2f in the last two", method, first, last)
			if last < 0.85 || last < first+0.2 {
				t.Errorf("reward went from %.2f to %.2f: the policy did not learn", first, last)
			}
		})
	}
}
