package prm

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/sample"
	"github.com/credo-rl/credo/task"
	"github.com/credo-rl/credo/task/arith"
)

// Labeled is a response with its exact step labels, for training or
// evaluating a PRM.
type Labeled struct {
	Prompt   string      `json:"prompt"`
	Response string      `json:"response"`
	Steps    []task.Step `json:"steps"`
	// Kind says where it came from: a corruption's name ("clean",
	// "wrong-result", "wrong-operand", "skipped-step") or "policy".
	Kind string `json:"kind"`
}

// KindPolicy marks responses sampled from a policy.
const KindPolicy = "policy"

// heldOutStream separates the held-out corruptions' random stream.
const heldOutStream = 0x686f6c64 // "hold"

// Synthetic returns n labelled solutions of a task that can corrupt its
// own solutions (arith): on task.Train, Task.PRMExamples(n, seed) (clean,
// wrong result, wrong operand and skipped step in equal shares, at
// random); on task.Test, the first n test prompts, prompt i corrupted by
// kind i mod 4, so the held-out set is balanced and never meets a training
// problem. A test prompt that cannot be corrupted so is left out.
func Synthetic(t task.Task, split task.Split, n int, seed uint64) ([]Labeled, error) {
	at, ok := t.(*arith.Task)
	if !ok {
		return nil, fmt.Errorf("task %s cannot corrupt its solutions (only arith can): train on policy samples instead", t.Name())
	}
	var out []Labeled
	if split != task.Test {
		for _, ex := range at.PRMExamples(n, seed) {
			out = append(out, Labeled{Prompt: ex.Prompt.Text, Response: ex.Response, Steps: ex.Steps, Kind: ex.Corruption.String()})
		}
		return out, nil
	}
	rng := rand.New(rand.NewPCG(seed, heldOutStream))
	for i := range n {
		p := t.Prompt(task.Test, i)
		ref, ok := p.Ref.(arith.Ref)
		if !ok || len(ref.Solution) == 0 {
			continue
		}
		kind := arith.Corruption(i % 4)
		resp, _, err := arith.Corrupt(rng, ref, kind)
		if err != nil {
			continue
		}
		out = append(out, Labeled{Prompt: p.Text, Response: resp, Steps: at.Steps(p, resp), Kind: kind.String()})
	}
	return out, nil
}

// PolicyConfig says how a warmed-up policy's samples are drawn.
type PolicyConfig struct {
	Dir     string        `json:"dir,omitempty"` // checkpoint folder; empty: no policy samples
	Prompts int           `json:"prompts"`       // training prompts answered
	HeldOut int           `json:"held_out"`      // test prompts answered, for the held-out set
	Group   int           `json:"group"`         // samples per prompt
	Sample  sample.Config `json:"sample"`
}

// PolicySamples answers prompts [0, n) of a split with g samples each and
// labels every response with the task's step labeler. Responses without a
// step are left out: they give the PRM nothing to learn.
func PolicySamples(ctx context.Context, pol *policy.Policy, t task.Task, split task.Split, n, g int, sc sample.Config) ([]Labeled, error) {
	lab, ok := t.(task.StepLabeler)
	if !ok {
		return nil, fmt.Errorf("task %s has no step labels", t.Name())
	}
	const chunk = 32 // prompts per generation call
	var out []Labeled
	for lo := 0; lo < n; lo += chunk {
		hi := min(lo+chunk, n)
		prompts := make([]task.Prompt, hi-lo)
		texts := make([]string, hi-lo)
		for i := range prompts {
			prompts[i] = t.Prompt(split, lo+i)
			texts[i] = prompts[i].Text
		}
		c := sc
		c.Seed = sc.Seed ^ uint64(lo)<<1 ^ uint64(split) // each chunk its own rows
		res, err := pol.Generate(ctx, texts, g, c)
		if err != nil {
			return nil, fmt.Errorf("policy samples: %w", err)
		}
		for _, r := range res {
			p := prompts[r.Prompt]
			steps := lab.Steps(p, r.Text)
			if len(steps) == 0 {
				continue
			}
			out = append(out, Labeled{Prompt: p.Text, Response: r.Text, Steps: steps, Kind: KindPolicy})
		}
	}
	return out, nil
}

// Requests turns labelled responses into influence requests whose policy
// tokens are the response's bytes (one token per byte).
func Requests(exs []Labeled) []credit.InfluenceRequest {
	out := make([]credit.InfluenceRequest, len(exs))
	for i, ex := range exs {
		offs := make([][2]int, len(ex.Response))
		for b := range offs {
			offs[b] = [2]int{b, b + 1}
		}
		out[i] = credit.InfluenceRequest{Prompt: ex.Prompt, Response: ex.Response, Offsets: offs}
	}
	return out
}
