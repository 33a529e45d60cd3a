package rollout

import (
	"context"
	"fmt"
	"time"

	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/sample"
	"github.com/credo-rl/credo/task"
)

// EvalConfig says how a policy is evaluated on a task's test split.
type EvalConfig struct {
	Prompts   int           `json:"eval_prompts"`    // test prompts, from index 0 (the same ones every time)
	Samples   int           `json:"eval_samples"`    // sampled responses per prompt, besides the greedy one
	MaxTokens int           `json:"eval_max_tokens"` // per response
	Workers   int           `json:"-"`
	Timeout   time.Duration `json:"-"`
	Seed      uint64        `json:"-"`
}

// EvalResult holds the mean of each reward over the test prompts,
// greedy and sampled. Verdicts marked Skip are left out of a mean. A
// verdict that failed (its verifier returned an error) scores 0 and is
// counted in Errors, out of Verdicts, so a broken judge does not pass for
// a reward of 0.
type EvalResult struct {
	Greedy   map[string]float64 `json:"greedy"`
	Sampled  map[string]float64 `json:"sampled,omitempty"`
	Errors   map[string]int     `json:"errors,omitempty"` // failed verdicts, by reward
	Verdicts map[string]int     `json:"verdicts"`         // verdicts asked, by reward
	// LastError is each failing reward's last error.
	LastError map[string]string `json:"-"`
	// PerPrompt is each reward's greedy score on each test prompt, in
	// prompt order, nil where the reward does not apply (evals.jsonl).
	PerPrompt map[string][]*float64 `json:"-"`
}

// ErrorShare is the largest share of any reward's verdicts that failed,
// and that reward's name.
func (r EvalResult) ErrorShare() (float64, string) {
	worst, name := 0.0, ""
	for k, n := range r.Errors {
		if v := r.Verdicts[k]; v > 0 && float64(n)/float64(v) > worst {
			worst, name = float64(n)/float64(v), k
		}
	}
	return worst, name
}

// Evaluate answers the first c.Prompts test prompts greedily and, when
// c.Samples > 0, by sampling at temperature 1, and averages each reward.
func Evaluate(ctx context.Context, p *policy.Policy, t task.Task, vs []reward.Verifier, c EvalConfig) (EvalResult, error) {
	prompts := make([]task.Prompt, c.Prompts)
	for i := range prompts {
		prompts[i] = t.Prompt(task.Test, i)
	}
	res := EvalResult{Verdicts: map[string]int{}}
	run := func(group int, sc sample.Config) (map[string]float64, error) {
		ro, err := Rollout(ctx, p, prompts, group, sc, vs, Verify{Workers: c.Workers, Timeout: c.Timeout})
		if err != nil && ro.Responses == nil { // sampling failed
			return nil, fmt.Errorf("evaluate: %w", err)
		}
		res.count(vs, ro)
		if group == 1 {
			res.PerPrompt = perPrompt(vs, ro.Verdicts)
		}
		return meanScores(vs, ro.Verdicts), err
	}
	var err error
	greedy := sample.Config{MaxTokens: c.MaxTokens, Temperature: 0, TopP: 1}
	if res.Greedy, err = run(1, greedy); err != nil {
		return res, err
	}
	if c.Samples > 0 {
		if res.Sampled, err = run(c.Samples, sample.Config{MaxTokens: c.MaxTokens, Temperature: 1, TopP: 1, Seed: c.Seed}); err != nil {
			return res, err
		}
	}
	return res, nil
}

// count adds ro's verdicts and failures to r's counts, by reward.
func (r *EvalResult) count(vs []reward.Verifier, ro Rollouts) {
	n, last := FailureCounts(ro.Failures, len(vs))
	for k, v := range vs {
		if k < len(ro.Verdicts) {
			r.Verdicts[v.Name()] += len(ro.Verdicts[k])
		}
		if n[k] == 0 {
			continue
		}
		if r.Errors == nil {
			r.Errors, r.LastError = map[string]int{}, map[string]string{}
		}
		r.Errors[v.Name()] += n[k]
		r.LastError[v.Name()] = last[k].Error()
	}
}

// perPrompt is each reward's score of each response, nil where skipped.
func perPrompt(vs []reward.Verifier, verdicts [][]reward.Verdict) map[string][]*float64 {
	out := map[string][]*float64{}
	for k, v := range vs {
		if k >= len(verdicts) {
			continue
		}
		row := make([]*float64, len(verdicts[k]))
		for i, vd := range verdicts[k] {
			if !vd.Skip {
				row[i] = &vd.Score
			}
		}
		out[v.Name()] = row
	}
	return out
}

// meanScores averages each reward's scores, leaving out skipped verdicts.
func meanScores(vs []reward.Verifier, verdicts [][]reward.Verdict) map[string]float64 {
	out := map[string]float64{}
	for k, v := range vs {
		sum, n := 0.0, 0
		for _, vd := range verdicts[k] {
			if !vd.Skip {
				sum += vd.Score
				n++
			}
		}
		if n > 0 {
			out[v.Name()] = sum / float64(n)
		}
	}
	return out
}
