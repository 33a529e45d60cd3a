package task

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/credo-rl/credo/internal/redact"
	"github.com/credo-rl/credo/internal/settings"
	"github.com/credo-rl/credo/reward"
)

// Build makes a registered task from its seed and difficulty settings
// ("key=value,…"), as a run's or a command's configuration names them:
// the one place the trainer, the warm-up, evaluation and the service
// build tasks.
func Build(name string, seed uint64, difficulty string) (Task, error) {
	d, err := ParseDifficulty(difficulty)
	if err != nil {
		return nil, err
	}
	return New(name, Config{Seed: seed, Difficulty: d})
}

// Rewards is the one set-up of the rewards of a run and of an evaluation:
// the task's rewards, the judges' and the extra verifiers (RewardsOf),
// each verifier that can say so asked once whether it can work
// (reward.Check), so a judge whose server is down stops the start instead
// of scoring every response 0.
func Rewards(ctx context.Context, tk Task, judges []string, extra ...reward.Verifier) ([]reward.Verifier, error) {
	vs, err := RewardsOf(tk, judges, extra...)
	if err != nil {
		return nil, err
	}
	if err := reward.Check(ctx, vs); err != nil {
		return nil, err
	}
	return vs, nil
}

// RewardsOf is the task's rewards followed by the judges' (reward/judge
// specs, built through the "judge" verifier kind) and the extra verifiers
// (a user's own, reward/remote). Reward names must be unique: metrics,
// weights and credit are keyed by name. Its errors are *settings.Error: a
// bad spec is a configuration problem.
func RewardsOf(tk Task, judges []string, extra ...reward.Verifier) ([]reward.Verifier, error) {
	vs := slices.Clone(tk.Rewards())
	for _, spec := range judges {
		v, err := reward.New("judge", spec)
		if err != nil {
			return nil, &settings.Error{Err: fmt.Errorf("judge %q: %w", redact.String(spec), err)}
		}
		for _, w := range vs {
			if w.Name() == v.Name() {
				return nil, &settings.Error{Err: fmt.Errorf("judge %q: its name %q is already the name of a reward of task %s (rewards: %s): give the judge another name=", redact.String(spec), v.Name(), tk.Name(), strings.Join(reward.NamesOf(vs), ", "))}
			}
		}
		vs = append(vs, v)
	}
	for _, v := range extra {
		if slices.Contains(reward.NamesOf(vs), v.Name()) {
			return nil, &settings.Error{Err: fmt.Errorf("verifier %q: its name is already the name of a reward (rewards: %s): give it another name=", v.Name(), strings.Join(reward.NamesOf(vs), ", "))}
		}
		vs = append(vs, v)
	}
	return vs, nil
}
