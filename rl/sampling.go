package rl

import (
	"context"

	"time"

	"github.com/credo-rl/credo/rollout"
	"github.com/credo-rl/credo/run"
	"github.com/credo-rl/credo/sample"
	"github.com/credo-rl/credo/task"
)

// reserveBase is where the prompts of dynamic sampling's extra rounds start
// in the training split: far past any index a run's first rounds reach, so
// the first round is exactly what a run without the filter samples.
const reserveBase = 1 << 30

// sampleStep samples and verifies step s's groups. Without dynamic
// sampling it is one round: training prompts s·P … s·P+P−1, G responses
// each. With Config.DynamicSampling = R > 1 (DAPO's dynamic sampling) it
// keeps only groups in which at least one reward varies, and while fewer
// than P are kept draws another round of P fresh prompts (from
// reserveBase on), up to R rounds; it trains on the kept groups (on the
// first round's when none varies). all holds every sampled group (the
// reward metrics describe the policy, not the filter), kept the ones the
// update sees. Metrics: reward/<name>/frac_reward_zero_std before and
// frac_reward_zero_std_kept after the filter (TRL's name: the share of
// groups where the reward applies and every response scored alike), and
// sampling/rounds, sampling/groups, sampling/kept.
func (t *Trainer) sampleStep(ctx context.Context, s int) (all, kept rollout.Rollouts, m run.Metrics, err error) {
	c := t.c
	P := c.PromptsPerStep
	rounds := max(c.DynamicSampling, 1)
	m = run.Metrics{}
	for r := range rounds {
		idx := make([]int, P)
		for j := range idx {
			if r == 0 {
				idx[j] = s*P + j
			} else {
				idx[j] = reserveBase + (s*(rounds-1)+r-1)*P + j
			}
		}
		seed := StepSeed(c.Seed, s)
		if r > 0 {
			seed = StepSeed(seed, r)
		}
		got, err := t.sampleRound(ctx, idx, seed)
		if err != nil {
			return all, kept, nil, err
		}
		all.Add(got, nil)
		if rounds == 1 {
			kept = got
			break
		}
		keep := []int{} // not nil: add takes nil for every group
		for g, varies := range got.VaryingGroups() {
			if len(kept.Prompts)+len(keep) < P && varies {
				keep = append(keep, g)
			}
		}
		kept.Add(got, keep)
		m["sampling/rounds"] = float64(r + 1)
		if len(kept.Prompts) == P {
			break
		}
	}
	if len(kept.Prompts) == 0 { // nothing varies anywhere: an update of zeros, as without the filter
		first := P
		kept.Add(all, nil)
		kept.Truncate(first)
	}
	if rounds > 1 {
		m["sampling/groups"], m["sampling/kept"] = float64(len(all.Prompts)), float64(len(kept.Prompts))
		for k, v := range t.rewards {
			if f, ok := all.ZeroStd(k); ok {
				m[run.RewardKey(v.Name(), "frac_reward_zero_std")] = f
			}
			if f, ok := kept.ZeroStd(k); ok {
				m[run.RewardKey(v.Name(), "frac_reward_zero_std_kept")] = f
			}
		}
	}
	return all, kept, m, nil
}

// sampleRound samples c.Group responses to each training prompt idx[j]
// with seed and verifies them.
func (t *Trainer) sampleRound(ctx context.Context, idx []int, seed uint64) (rollout.Rollouts, error) {
	c := t.c
	prompts := make([]task.Prompt, len(idx))
	for j, i := range idx {
		prompts[j] = t.task.Prompt(task.Train, i)
	}
	sc := sample.Config{MaxTokens: c.MaxTokens, Temperature: c.Temperature, TopP: c.TopP, Seed: seed}
	return rollout.Rollout(ctx, t.policy, prompts, c.Group, sc, t.rewards, t.verify())
}

// verify is the run's verdict settings.
func (t *Trainer) verify() rollout.Verify {
	return rollout.Verify{Workers: t.c.VerifyWorkers, Timeout: time.Duration(t.c.VerifyTimeout)}
}
