package rl

import (
	"context"

	"time"

	"github.com/credo-rl/credo/credit"

	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/run"
	"github.com/credo-rl/credo/sample"
	"github.com/credo-rl/credo/task"
)

// rollouts are groups of sampled responses with their verdicts.
type rollouts struct {
	prompts     []task.Prompt      // the groups' prompts                   [P]
	ids         [][]int32          // their token ids                       [P]
	res         []sample.Response  // res[i].Prompt indexes prompts         [N]
	respPrompts []reward.Prompt    // each response's prompt                [N]
	texts       []string           // each response's text                  [N]
	verdicts    [][]reward.Verdict // per reward, per response              [K][N]
	verr        []verifyFailure    // failed verdicts (scored 0)
	// sampling and verifying are the time spent generating and judging.
	sampling, verifying time.Duration
}

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
func (t *Trainer) sampleStep(ctx context.Context, s int) (all, kept rollouts, m run.Metrics, err error) {
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
		seed := stepSeed(c.Seed, s)
		if r > 0 {
			seed = stepSeed(seed, r)
		}
		got, err := t.sampleRound(ctx, idx, seed)
		if err != nil {
			return all, kept, nil, err
		}
		all.add(got, nil)
		if rounds == 1 {
			kept = got
			break
		}
		keep := []int{} // not nil: add takes nil for every group
		for g, varies := range got.varyingGroups() {
			if len(kept.prompts)+len(keep) < P && varies {
				keep = append(keep, g)
			}
		}
		kept.add(got, keep)
		m["sampling/rounds"] = float64(r + 1)
		if len(kept.prompts) == P {
			break
		}
	}
	if len(kept.prompts) == 0 { // nothing varies anywhere: an update of zeros, as without the filter
		first := P
		kept.add(all, nil)
		kept.truncate(first)
	}
	if rounds > 1 {
		m["sampling/groups"], m["sampling/kept"] = float64(len(all.prompts)), float64(len(kept.prompts))
		for k, v := range t.rewards {
			if f, ok := all.zeroStd(k); ok {
				m[run.RewardKey(v.Name(), "frac_reward_zero_std")] = f
			}
			if f, ok := kept.zeroStd(k); ok {
				m[run.RewardKey(v.Name(), "frac_reward_zero_std_kept")] = f
			}
		}
	}
	return all, kept, m, nil
}

// sampleRound samples c.Group responses to each training prompt idx[j]
// with seed and verifies them.
func (t *Trainer) sampleRound(ctx context.Context, idx []int, seed uint64) (rollouts, error) {
	c := t.c
	var out rollouts
	for _, i := range idx {
		p := t.task.Prompt(task.Train, i)
		out.prompts = append(out.prompts, p)
		out.ids = append(out.ids, t.policy.Tok.EncodePrompt(p.Text))
	}
	sc := sample.Config{MaxTokens: c.MaxTokens, Temperature: c.Temperature, TopP: c.TopP, Seed: seed}
	start := time.Now()
	res, err := sample.Generate(ctx, t.policy.Model, t.policy.Tok, out.ids, c.Group, sc)
	if err != nil {
		return out, err
	}
	out.sampling = time.Since(start)
	out.res = res
	for _, r := range res {
		out.respPrompts = append(out.respPrompts, out.prompts[r.Prompt])
		out.texts = append(out.texts, r.Text)
	}
	start = time.Now()
	out.verdicts, out.verr = verifyAll(ctx, t.rewards, out.respPrompts, out.texts, c.VerifyWorkers, time.Duration(c.VerifyTimeout))
	out.verifying = time.Since(start)
	return out, ctx.Err()
}

// add appends the groups of o named by groups (every group when nil),
// renumbering their responses' prompt index.
func (r *rollouts) add(o rollouts, groups []int) {
	if groups == nil {
		groups = make([]int, len(o.prompts))
		for g := range groups {
			groups[g] = g
		}
	}
	if r.verdicts == nil {
		r.verdicts = make([][]reward.Verdict, len(o.verdicts))
	}
	for _, g := range groups {
		at := len(r.prompts)
		r.prompts, r.ids = append(r.prompts, o.prompts[g]), append(r.ids, o.ids[g])
		for i, res := range o.res {
			if res.Prompt != g {
				continue
			}
			res.Prompt = at
			r.res = append(r.res, res)
			r.respPrompts, r.texts = append(r.respPrompts, o.respPrompts[i]), append(r.texts, o.texts[i])
			for k := range o.verdicts {
				r.verdicts[k] = append(r.verdicts[k], o.verdicts[k][i])
			}
		}
	}
	r.verr = append(r.verr, o.verr...)
	r.sampling += o.sampling
	r.verifying += o.verifying
}

// truncate keeps the first n groups.
func (r *rollouts) truncate(n int) {
	if n >= len(r.prompts) {
		return
	}
	cut := 0
	for cut < len(r.res) && r.res[cut].Prompt < n {
		cut++
	}
	r.prompts, r.ids = r.prompts[:n], r.ids[:n]
	r.res, r.respPrompts, r.texts = r.res[:cut], r.respPrompts[:cut], r.texts[:cut]
	for k := range r.verdicts {
		r.verdicts[k] = r.verdicts[k][:cut]
	}
}

// varyingGroups says, for each group, whether some reward scores its
// responses differently (credit.Varies decides, as for the methods): the
// group gives the update a signal.
func (r *rollouts) varyingGroups() []bool {
	out := make([]bool, len(r.prompts))
	groups := r.groups()
	for k := range r.verdicts {
		scores := make([]float64, len(r.res))
		skip := make([]bool, len(r.res))
		for i, v := range r.verdicts[k] {
			scores[i], skip[i] = v.Score, v.Skip
		}
		for i, v := range credit.Varies(scores, skip, groups) {
			out[groups[i]] = out[groups[i]] || v
		}
	}
	return out
}

// zeroStd is the share of groups where reward k applies in which every
// response scored alike (credit.ZeroVariance); ok is false when it applies
// to none.
func (r *rollouts) zeroStd(k int) (frac float64, ok bool) {
	share, applies := credit.ZeroVariance(r.verdicts[k], r.groups())
	return share, applies > 0
}

// groups is each response's group: the index of its prompt.
func (r *rollouts) groups() []int {
	g := make([]int, len(r.res))
	for i, res := range r.res {
		g[i] = res.Prompt
	}
	return g
}
