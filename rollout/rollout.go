package rollout

import (
	"context"
	"time"

	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/sample"
	"github.com/credo-rl/credo/task"
)

// Rollouts are groups of sampled responses with their verdicts: what a
// training step, an evaluation and a calibration all start from.
type Rollouts struct {
	Prompts   []task.Prompt      // the groups' prompts                    [P]
	IDs       [][]int32          // their token ids, chat template applied [P]
	Responses []sample.Response  // Responses[i].Prompt indexes Prompts    [N]
	Verdicts  [][]reward.Verdict // per reward, per response               [K][N]
	Failures  []VerifyFailure    // verdicts that failed (scored 0)
	// Sampling and Verifying are the time spent generating and judging.
	Sampling, Verifying time.Duration
}

// Verify says how verdicts are asked for: by Workers verifiers at once,
// each under its own Timeout (0: none).
type Verify struct {
	Workers int
	Timeout time.Duration
}

// Rollout samples group responses to each prompt with p (sample.Generate
// on the prompts rendered with the chat template) and scores every
// response with every verifier (VerifyAll). A failed verdict scores 0 and
// is listed in Failures. The error is the sampler's (Responses is then
// nil) or, once every response is verified, ctx's.
func Rollout(ctx context.Context, p *policy.Policy, prompts []task.Prompt, group int, sc sample.Config, vs []reward.Verifier, v Verify) (Rollouts, error) {
	out := Rollouts{Prompts: prompts, IDs: make([][]int32, len(prompts))}
	for i, pr := range prompts {
		out.IDs[i] = p.Tok.EncodePrompt(pr.Text)
	}
	start := time.Now()
	res, err := sample.Generate(ctx, p.Model, p.Tok, out.IDs, group, sc)
	if err != nil {
		return out, err
	}
	out.Sampling = time.Since(start)
	out.Responses = res
	texts := make([]string, len(res))
	for i, r := range res {
		texts[i] = r.Text
	}
	start = time.Now()
	out.Verdicts, out.Failures = VerifyAll(ctx, vs, out.ResponsePrompts(), texts, v)
	out.Verifying = time.Since(start)
	return out, ctx.Err()
}

// PromptOf is response i's prompt.
func (r *Rollouts) PromptOf(i int) task.Prompt { return r.Prompts[r.Responses[i].Prompt] }

// ResponsePrompts is each response's prompt                        [N].
func (r *Rollouts) ResponsePrompts() []reward.Prompt {
	out := make([]reward.Prompt, len(r.Responses))
	for i := range out {
		out[i] = r.PromptOf(i)
	}
	return out
}

// Texts is each response's text                                    [N].
func (r *Rollouts) Texts() []string {
	out := make([]string, len(r.Responses))
	for i, res := range r.Responses {
		out[i] = res.Text
	}
	return out
}

// Add appends the groups of o named by groups (every group when nil),
// renumbering their responses' prompt index.
func (r *Rollouts) Add(o Rollouts, groups []int) {
	if groups == nil {
		groups = make([]int, len(o.Prompts))
		for g := range groups {
			groups[g] = g
		}
	}
	if r.Verdicts == nil {
		r.Verdicts = make([][]reward.Verdict, len(o.Verdicts))
	}
	for _, g := range groups {
		at := len(r.Prompts)
		r.Prompts, r.IDs = append(r.Prompts, o.Prompts[g]), append(r.IDs, o.IDs[g])
		for i, res := range o.Responses {
			if res.Prompt != g {
				continue
			}
			res.Prompt = at
			r.Responses = append(r.Responses, res)
			for k := range o.Verdicts {
				r.Verdicts[k] = append(r.Verdicts[k], o.Verdicts[k][i])
			}
		}
	}
	r.Failures = append(r.Failures, o.Failures...)
	r.Sampling += o.Sampling
	r.Verifying += o.Verifying
}

// Truncate keeps the first n groups.
func (r *Rollouts) Truncate(n int) {
	if n >= len(r.Prompts) {
		return
	}
	cut := 0
	for cut < len(r.Responses) && r.Responses[cut].Prompt < n {
		cut++
	}
	r.Prompts, r.IDs, r.Responses = r.Prompts[:n], r.IDs[:n], r.Responses[:cut]
	for k := range r.Verdicts {
		r.Verdicts[k] = r.Verdicts[k][:cut]
	}
}

// VaryingGroups says, for each group, whether some reward scores its
// responses differently (credit.Varies decides, as for the methods): the
// group gives the update a signal.
func (r *Rollouts) VaryingGroups() []bool {
	out := make([]bool, len(r.Prompts))
	groups := r.Groups()
	for k := range r.Verdicts {
		scores := make([]float64, len(r.Responses))
		skip := make([]bool, len(r.Responses))
		for i, v := range r.Verdicts[k] {
			scores[i], skip[i] = v.Score, v.Skip
		}
		for i, v := range credit.Varies(scores, skip, groups) {
			out[groups[i]] = out[groups[i]] || v
		}
	}
	return out
}

// ZeroStd is the share of groups where reward k applies in which every
// response scored alike (credit.ZeroVariance); ok is false when it applies
// to none.
func (r *Rollouts) ZeroStd(k int) (frac float64, ok bool) {
	share, applies := credit.ZeroVariance(r.Verdicts[k], r.Groups())
	return share, applies > 0
}

// Groups is each response's group: the index of its prompt         [N].
func (r *Rollouts) Groups() []int {
	g := make([]int, len(r.Responses))
	for i, res := range r.Responses {
		g[i] = res.Prompt
	}
	return g
}
