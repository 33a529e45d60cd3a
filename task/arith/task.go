package arith

import (
	"fmt"
	"math/rand/v2"

	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/task"
)

func init() {
	task.Register("arith", New)
	task.RegisterSteps("arith", labeler{})
}

// labeler is the arith step labeler without a task: Steps needs only the
// prompt and the response.
type labeler struct{}

func (labeler) Steps(p task.Prompt, response string) []task.Step { return Steps(p, response) }

// Ref is the reference an arith prompt carries in task.Prompt.Ref.
type Ref struct {
	// Expr is the problem's canonical expression, "(17 + 25) * 3 - 8"; it
	// decides the split. Empty for GSM8K prompts.
	Expr string
	// Answer is the reference answer in ParseNumber's canonical form.
	Answer string
	// Numbers are the prompt's numbers: operands any step may use.
	Numbers []int64
	// Solution is the canonical solution; nil for GSM8K prompts.
	Solution []SolStep
	// GSM8K marks a free-text GSM8K prompt: only the answer reward applies.
	GSM8K bool
}

// Response renders the canonical solution: one step per line, then the
// answer line.
func (r Ref) Response() string {
	return render(r.Solution, r.Answer)
}

// refOf finds the Ref of a prompt, held by value or by pointer.
func refOf(p task.Prompt) (Ref, bool) {
	switch r := p.Ref.(type) {
	case Ref:
		return r, true
	case *Ref:
		if r != nil {
			return *r, true
		}
	}
	return Ref{}, false
}

// Task is the arith task: multi-step integer arithmetic with the rewards
// answer and format, and exact step labels for a process reward model.
type Task struct {
	seed uint64
	gen  *gen
}

var (
	_ task.Task          = (*Task)(nil)
	_ task.StepLabeler   = (*Task)(nil)
	_ task.StepCorrupter = (*Task)(nil)
	_ task.Tunable       = (*Task)(nil)
)

// New builds the arith task. Its prompts are a function of c.Seed and the
// difficulty settings (Knobs) alone.
func New(c task.Config) (task.Task, error) {
	g, err := newGen(c.Difficulty)
	if err != nil {
		return nil, fmt.Errorf("arith: %w", err)
	}
	return &Task{seed: c.Seed, gen: g}, nil
}

// Name is "arith".
func (t *Task) Name() string { return "arith" }

// Prompt returns prompt i of a split, a function of (seed, split, i). The
// generator redraws until the canonical expression hashes into split, so
// the splits are disjoint by construction; a split value other than
// task.Test means task.Train.
func (t *Task) Prompt(split task.Split, i int) task.Prompt {
	if split != task.Test {
		split = task.Train
	}
	rng := rand.New(rand.NewPCG(t.seed, uint64(i)<<1|uint64(split)))
	p := t.gen.draw(rng, split)
	return task.Prompt{ID: fmt.Sprintf("arith-%s-%d", split, i), Text: p.text, Ref: p.ref}
}

// Rewards are answer, then format.
func (t *Task) Rewards() []reward.Verifier {
	return []reward.Verifier{AnswerVerifier{}, FormatVerifier{}}
}

// Steps splits a response into labelled steps; see the package function Steps.
func (t *Task) Steps(p task.Prompt, response string) []task.Step {
	return Steps(p, response)
}
