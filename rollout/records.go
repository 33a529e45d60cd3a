package rollout

import (
	"math"

	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/run"
	"github.com/credo-rl/credo/task"
)

// CreditBatch is what a credit method sees of r scored by vs (weights
// c[k], nil for 1), at training step s with seed: every response's group,
// scores, verdicts, prompt without blocks (task.ReplayBase: the prompt as
// it states itself), text, tokens and offsets. The caller adds the
// Replayer or Influencer a method needs.
func (r *Rollouts) CreditBatch(vs []reward.Verifier, weights []float64, s int, seed uint64) *credit.Batch {
	res, verdicts := r.Responses, r.Verdicts
	N, K := len(res), len(vs)
	b := &credit.Batch{
		Groups: make([]int, N), Scores: make([][]float64, K), Weights: weights,
		Rewards: make([]string, K), Verdicts: verdicts,
		Prompts: make([]string, N), Responses: make([]string, N),
		Tokens: make([][]int32, N), Offsets: make([][][2]int, N),
		Step: s, Seed: seed,
	}
	for k, v := range vs {
		b.Rewards[k] = v.Name()
		b.Scores[k] = make([]float64, N)
		for i := range N {
			b.Scores[k][i] = verdicts[k][i].Score
		}
	}
	for i, resp := range res {
		b.Groups[i] = resp.Prompt
		b.Prompts[i], b.Responses[i] = task.ReplayBase(r.PromptOf(i)), resp.Text
		b.Tokens[i], b.Offsets[i] = resp.Tokens, resp.Offsets
	}
	return b
}

// Samples are n of r's responses spread over the batch, scored by vs and
// credited adv, as the lines of samples.jsonl for step (the steps
// completed with this one).
func (r *Rollouts) Samples(step, n int, vs []reward.Verifier, adv credit.Advantages) []run.Sample {
	res, verdicts := r.Responses, r.Verdicts
	n = min(n, len(res))
	out := make([]run.Sample, 0, n)
	for j := range n {
		i := j * len(res) / n
		resp := res[i]
		rec := run.Sample{
			Step: step, Index: i, Prompt: r.PromptOf(i).Text, Response: resp.Text,
			Offsets: resp.Offsets, Advantages: adv.Tokens[i],
		}
		if i < len(adv.Response) {
			rec.Advantage = adv.Response[i]
		}
		for _, o := range resp.Offsets {
			rec.Tokens = append(rec.Tokens, resp.Text[o[0]:o[1]])
		}
		for k, v := range vs {
			vd := verdicts[k][i]
			rec.Verdicts = append(rec.Verdicts, run.Verdict{Reward: v.Name(), Score: vd.Score, Info: vd.Info, Spans: vd.Spans, Reason: vd.Reason, Skip: vd.Skip})
			if k < len(adv.Relevance) && adv.Relevance[k] != nil && adv.Relevance[k][i] != nil {
				if rec.Relevance == nil {
					rec.Relevance = map[string][]float64{}
				}
				rec.Relevance[v.Name()] = adv.Relevance[k][i]
			}
		}
		for _, a := range rec.Advantages {
			if math.IsNaN(a) || math.IsInf(a, 0) {
				rec.Advantages = nil // never write invalid JSON
				break
			}
		}
		out = append(out, rec)
	}
	return out
}
