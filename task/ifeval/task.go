package ifeval

import (
	"context"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"

	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/task"
)

func init() { task.Register("ifeval", New) }

// Task generates instruction-following prompts for small policies; see the
// package comment.
type Task struct {
	seed    uint64
	rewards []reward.Verifier
	set     settings
}

var (
	_ task.Task    = (*Task)(nil)
	_ task.Tunable = (*Task)(nil)
)

// New builds the task from c.Seed and the difficulty settings (Knobs): the
// task writes no data.
func New(c task.Config) (task.Task, error) {
	set, err := readSettings(c.Difficulty)
	if err != nil {
		return nil, fmt.Errorf("ifeval: %w", err)
	}
	t := &Task{seed: c.Seed, set: set}
	for _, k := range kindOrder {
		t.rewards = append(t.rewards, NewVerifier(k))
	}
	return t, nil
}

// Name is "ifeval".
func (t *Task) Name() string { return "ifeval" }

// Rewards is one verifier per kind, in kindOrder order.
func (t *Task) Rewards() []reward.Verifier { return slices.Clone(t.rewards) }

// Prompt returns prompt i of a split, a function of (seed, split, i) only.
// Prompts are drawn from a generator seeded by (seed, split, i) until the
// hash of the text falls in the split, so no text is ever in both splits.
// The Ref is a *Ref whose items are under their kind. A split other than
// Train and Test counts as Train.
func (t *Task) Prompt(split task.Split, i int) task.Prompt {
	p, _ := t.generate(split, i)
	return p
}

func (t *Task) generate(split task.Split, i int) (task.Prompt, *spec) {
	if split != task.Test {
		split = task.Train // an unknown split would never match
	}
	rng := rand.New(rand.NewPCG(t.seed, uint64(i)<<1|uint64(split&1)))
	for {
		sp := drawSpec(rng, &t.set)
		items := sp.items()
		text := promptText(sp.request, items)
		if splitOf(text) != split {
			continue
		}
		ref := &Ref{Topic: sp.topic.name, Items: items, Request: sp.request, spec: sp}
		return task.Prompt{ID: fmt.Sprintf("%s-%d", split, i), Text: text, Ref: ref}, sp
	}
}

// demoTries bounds the redraws of one demonstration before its flaws are
// given up (and then before it is returned as it is).
const demoTries = 40

// Demos writes n demonstrations on training prompts, seeded. Each kind a
// prompt has is flawed with probability c.Rate(kind). The prompt states its
// constraints as blocks after the request (see promptText), as the policy
// is asked in training; but with probability c.BlockRate a flawed
// demonstration's prompt leaves out the blocks of the kinds its response
// breaks, so that there a constraint is broken exactly when its block is
// missing, and every block the prompt carries is followed: what the policy
// writes depends on the blocks it reads, which is what replay measures.
// The other flawed demonstrations slip on stated constraints, as a policy
// does. Flaws lists the kinds the response breaks, as the verifiers judge
// it against the prompt's Ref. When the grammar cannot produce a drawn set
// of flaws (rare: a word bound it cannot miss), the demonstration comes out
// clean.
func (t *Task) Demos(n int, seed uint64, c task.DemoConfig) []task.Demo {
	ds := t.demos(n, seed, c)
	out := make([]task.Demo, len(ds))
	for i, d := range ds {
		out[i] = d.Demo
	}
	return out
}

// demo is a demonstration with the prompt it answers and the kinds whose
// blocks its prompt leaves out, for tests.
type demo struct {
	task.Demo
	prompt   task.Prompt
	unstated []string
}

func (t *Task) demos(n int, seed uint64, c task.DemoConfig) []demo {
	rng := rand.New(rand.NewPCG(seed, 0x1feba1))
	out := make([]demo, 0, max(n, 0))
	for range n {
		p, sp := t.generate(task.Train, int(rng.Uint64()>>34))
		ref := p.Ref.(*Ref)
		flaw := map[string]bool{}
		for _, k := range kindOrder {
			if sp.has[k] && rng.Float64() < c.Rate(k) {
				flaw[k] = true
			}
		}
		resp, broken := t.write(rng, sp, ref, flaw)
		d := demo{Demo: task.Demo{Prompt: p.Text, Response: resp, Flaws: broken}, prompt: p}
		if len(broken) > 0 && rng.Float64() < c.BlockRate {
			d.unstated = broken
			d.Prompt = task.Compose(ref.Request, kindBlocks(ref.Items, broken))
		}
		out = append(out, d)
	}
	return out
}

// write builds a response that breaks exactly the kinds in flaw, redrawing
// until the checkers agree; if it cannot, it drops the flaws and writes a
// clean one. It returns the kinds the response breaks, in kindOrder order.
func (t *Task) write(rng *rand.Rand, sp *spec, ref *Ref, flaw map[string]bool) (string, []string) {
	var resp string
	for try := range 2 * demoTries {
		if try == demoTries {
			flaw = map[string]bool{}
		}
		b := &builder{rng: rng, sp: sp, flaw: flaw}
		r, ok := b.response()
		if !ok {
			continue
		}
		resp = r
		if sameSet(failing(ref, r), flaw) {
			break
		}
	}
	return resp, failing(ref, resp)
}

// failing lists the kinds of ref whose constraints the response breaks.
func failing(ref *Ref, response string) []string {
	var out []string
	for _, k := range kindOrder {
		for _, it := range ref.Items {
			if it.Kind == k && !it.Constraint.Check(response).OK {
				out = append(out, k)
				break
			}
		}
	}
	return out
}

func sameSet(list []string, set map[string]bool) bool {
	if len(list) != len(set) {
		return false
	}
	for _, k := range list {
		if !set[k] {
			return false
		}
	}
	return true
}

// Reference writes a response that meets every constraint of a prompt the
// task generated (task.Referencer), seeded by the prompt's text; false for
// a prompt it did not make.
func (t *Task) Reference(p task.Prompt) (string, bool) {
	ref, ok := p.Ref.(*Ref)
	if !ok || ref == nil || ref.spec == nil {
		return "", false
	}
	h := fnv.New64a()
	h.Write([]byte(p.Text))
	resp, broken := t.write(rand.New(rand.NewPCG(t.seed, h.Sum64())), ref.spec, ref, map[string]bool{})
	return resp, len(broken) == 0
}

// Verify judges a response to a prompt on every reward, in reward order: a
// convenience for examples and evaluation.
func (t *Task) Verify(ctx context.Context, p task.Prompt, response string) ([]reward.Verdict, error) {
	out := make([]reward.Verdict, len(t.rewards))
	for i, v := range t.rewards {
		d, err := v.Verify(ctx, p, response)
		if err != nil {
			return nil, err
		}
		out[i] = d
	}
	return out, nil
}
