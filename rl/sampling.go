package rl

import (
	"context"
	"time"

	"github.com/credo-rl/credo/rollout"
	"github.com/credo-rl/credo/run"
	"github.com/credo-rl/credo/sample"
)

// sampleStep samples and verifies step s's groups (rollout.Step): one
// round, or up to Config.DynamicSampling rounds that keep only the groups
// in which some reward varies. all holds every sampled group, kept the
// ones the update sees.
func (t *Trainer) sampleStep(ctx context.Context, s int) (all, kept rollout.Rollouts, m run.Metrics, err error) {
	c := t.c
	return rollout.Step(ctx, t.policy, t.task, t.rewards, s, rollout.StepConfig{
		Prompts: c.PromptsPerStep, Group: c.Group, Rounds: c.DynamicSampling,
		Sample: sample.Config{MaxTokens: c.MaxTokens, Temperature: c.Temperature, TopP: c.TopP, Seed: c.Seed},
		Verify: t.verify(),
	})
}

// verify is the run's verdict settings.
func (t *Trainer) verify() rollout.Verify {
	return rollout.Verify{Workers: t.c.VerifyWorkers, Timeout: time.Duration(t.c.VerifyTimeout)}
}
