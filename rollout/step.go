package rollout

import (
	"context"

	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/run"
	"github.com/credo-rl/credo/sample"
	"github.com/credo-rl/credo/task"
)

// reserveBase is where the prompts of dynamic sampling's extra rounds start
// in the training split: far past any index a run's first rounds reach, so
// the first round is exactly what a run without the filter samples.
const reserveBase = 1 << 30

// StepSeed derives the seed of step s from the run's seed, so a resumed
// run samples exactly what an uninterrupted one would have.
func StepSeed(seed uint64, s int) uint64 {
	x := seed ^ (uint64(s)+1)*0x9e3779b97f4a7c15 // splitmix64
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// StepConfig says how a training step samples its groups.
type StepConfig struct {
	Prompts int // P, the groups a step trains on
	Group   int // G, the responses to each prompt
	// Rounds R > 1 is DAPO's dynamic sampling (see Step); 0 or 1 samples
	// one round and keeps every group.
	Rounds int
	// Sample is how responses are drawn; its Seed is the run's, from which
	// each round's is derived (StepSeed).
	Sample sample.Config
	Verify Verify
}

// Step samples and verifies training step s's groups. Without dynamic
// sampling it is one round: training prompts s·P … s·P+P−1, G responses
// each. With Rounds = R > 1 (DAPO's dynamic sampling) it keeps only groups
// in which at least one reward varies, and while fewer than P are kept
// draws another round of P fresh prompts (from reserveBase on), up to R
// rounds; it trains on the kept groups (on the first round's when none
// varies). all holds every sampled group (the reward metrics describe the
// policy, not the filter), kept the ones the update sees. Metrics:
// reward/<name>/frac_reward_zero_std before and frac_reward_zero_std_kept
// after the filter (TRL's name: the share of groups where the reward
// applies and every response scored alike), and sampling/rounds,
// sampling/groups, sampling/kept.
func Step(ctx context.Context, p *policy.Policy, t task.Task, vs []reward.Verifier, s int, c StepConfig) (all, kept Rollouts, m run.Metrics, err error) {
	P := c.Prompts
	rounds := max(c.Rounds, 1)
	m = run.Metrics{}
	for r := range rounds {
		prompts := make([]task.Prompt, P)
		for j := range prompts {
			i := s*P + j
			if r > 0 {
				i = reserveBase + (s*(rounds-1)+r-1)*P + j
			}
			prompts[j] = t.Prompt(task.Train, i)
		}
		sc := c.Sample
		sc.Seed = StepSeed(c.Sample.Seed, s)
		if r > 0 {
			sc.Seed = StepSeed(sc.Seed, r)
		}
		got, err := Rollout(ctx, p, prompts, c.Group, sc, vs, c.Verify)
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
		kept.Add(all, nil)
		kept.Truncate(P)
	}
	if rounds > 1 {
		m["sampling/groups"], m["sampling/kept"] = float64(len(all.Prompts)), float64(len(kept.Prompts))
		for k, v := range vs {
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
