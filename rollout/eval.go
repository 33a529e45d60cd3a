package rollout

import (
	"context"
	"fmt"
	"sort"
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
	// Batch is how many prompts are generated at once (their rows share
	// one KV cache, whose memory grows with it); 0: all of them.
	Batch int `json:"-"`
	// Progress, when set, is called after each batch of greedy responses
	// with the prompts answered so far and their number.
	Progress func(done, total int) `json:"-"`
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
	// Prompts and Responses are the prompts evaluated and the greedy
	// response to each, in prompt order.
	Prompts   []task.Prompt     `json:"-"`
	Responses []sample.Response `json:"-"`
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
	return EvaluatePrompts(ctx, p, prompts, vs, c)
}

// EvaluatePrompts is Evaluate on the given prompts (c.Prompts unused),
// generated c.Batch at a time.
func EvaluatePrompts(ctx context.Context, p *policy.Policy, prompts []task.Prompt, vs []reward.Verifier, c EvalConfig) (EvalResult, error) {
	res := EvalResult{Verdicts: map[string]int{}}
	batch := c.Batch
	if batch <= 0 {
		batch = max(len(prompts), 1)
	}
	// In batches, prompts of similar length go together, so that few rows
	// pad their prompt to a much longer one; results return in prompt order.
	order := make([]int, len(prompts))
	for i := range order {
		order[i] = i
	}
	if batch < len(prompts) {
		n := make([]int, len(prompts))
		for i, pr := range prompts {
			n[i] = len(p.Tok.EncodePrompt(pr.Text))
		}
		sort.SliceStable(order, func(a, b int) bool { return n[order[a]] < n[order[b]] })
	}
	back := make([]int, len(order)) // prompt i's place in order
	for at, i := range order {
		back[i] = at
	}
	sorted := make([]task.Prompt, len(prompts))
	for at, i := range order {
		sorted[at] = prompts[i]
	}
	run := func(group int, sc sample.Config) (map[string]float64, error) {
		var byLength Rollouts
		var err error
		for from := 0; from < len(sorted); from += batch {
			part, perr := Rollout(ctx, p, sorted[from:min(from+batch, len(sorted))], group, sc, vs, Verify{Workers: c.Workers, Timeout: c.Timeout})
			if perr != nil && part.Responses == nil { // sampling failed
				return nil, fmt.Errorf("evaluate: %w", perr)
			}
			byLength.Add(part, nil)
			if err = perr; err != nil {
				break
			}
			if group == 1 && c.Progress != nil {
				c.Progress(len(byLength.Prompts), len(prompts))
			}
		}
		var ro Rollouts
		if err == nil {
			ro.Add(byLength, back)
		} else { // stopped early: in the order answered
			ro = byLength
		}
		if ro.Verdicts == nil {
			ro.Verdicts = make([][]reward.Verdict, len(vs))
		}
		res.count(vs, ro)
		if group == 1 {
			res.PerPrompt = perPrompt(vs, ro.Verdicts)
			res.Prompts, res.Responses = ro.Prompts, ro.Responses
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
