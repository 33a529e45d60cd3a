package prm

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/sample"
	"github.com/credo-rl/credo/task"
)

// Labeled is a response with its exact step labels, for training or
// evaluating a PRM.
type Labeled struct {
	Prompt   string      `json:"prompt"`
	Response string      `json:"response"`
	Steps    []task.Step `json:"steps"`
	// Kind says where it came from: a corruption's name (the task's
	// Corruptions: "clean", "wrong-result", … for arith) or "policy".
	Kind string `json:"kind"`
}

// KindPolicy marks responses sampled from a policy.
const KindPolicy = "policy"

// The random streams of the synthetic data.
const (
	heldOutStream = 0x686f6c64   // "hold"
	trainStream   = 0x747261696e // "train"
)

// Synthetic returns n labelled solutions of a task that can corrupt its own
// solutions (task.StepCorrupter; arith can), labelled by the task's steps:
// on task.Train, training prompts at seeded random indices (so they are
// not the prompts an RL run takes first), each broken by a corruption
// drawn at random, every kind (clean included) in equal shares on
// average; on task.Test, the first n test prompts, prompt i broken by
// kind i mod the number of kinds, so the held-out set is balanced and
// never meets a training problem. A prompt the task cannot break so is
// left out.
func Synthetic(t task.Task, split task.Split, n int, seed uint64) ([]Labeled, error) {
	c, ok := t.(task.StepCorrupter)
	if !ok {
		return nil, fmt.Errorf("task %s cannot corrupt its solutions (it is no task.StepCorrupter): train on policy samples instead", t.Name())
	}
	kinds := c.Corruptions()
	if len(kinds) == 0 {
		return nil, fmt.Errorf("task %s names no corruptions", t.Name())
	}
	label := func(p task.Prompt, kind int, rng *rand.Rand) (Labeled, bool) {
		resp, ok := c.Corrupt(rng, p, kind)
		if !ok {
			return Labeled{}, false
		}
		return Labeled{Prompt: p.Text, Response: resp, Steps: c.Steps(p, resp), Kind: kinds[kind]}, true
	}
	var out []Labeled
	if split != task.Test {
		rng := rand.New(rand.NewPCG(seed, trainStream))
		for try := 0; len(out) < n && try < 4*n+100; try++ {
			p := t.Prompt(task.Train, rng.IntN(1<<30))
			if ex, ok := label(p, rng.IntN(len(kinds)), rng); ok {
				out = append(out, ex)
			}
		}
		if len(out) == 0 && n > 0 {
			return nil, fmt.Errorf("task %s broke none of its training solutions", t.Name())
		}
		return out, nil
	}
	rng := rand.New(rand.NewPCG(seed, heldOutStream))
	for i := range n {
		if ex, ok := label(t.Prompt(task.Test, i), i%len(kinds), rng); ok {
			out = append(out, ex)
		}
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

// Generator is what PolicySamples needs of a policy: group responses to
// each prompt text (response r answers prompt r / group). *policy.Policy
// is one.
type Generator interface {
	Generate(ctx context.Context, prompts []string, group int, c sample.Config) ([]sample.Response, error)
}

var _ Generator = (*policy.Policy)(nil)

// PolicySamples answers prompts [0, n) of a split with g samples each and
// labels every response with the task's step labeler. Responses without a
// step are left out: they give the PRM nothing to learn.
func PolicySamples(ctx context.Context, pol Generator, t task.Task, split task.Split, n, g int, sc sample.Config) ([]Labeled, error) {
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
