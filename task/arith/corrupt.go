package arith

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/credo-rl/credo/task"
)

// Corruption is how a solution for process-reward-model training is broken.
type Corruption int

const (
	Clean        Corruption = iota // the canonical solution
	WrongResult                    // one step's result is off; later steps build on it
	WrongOperand                   // one step uses a number nothing derived; later steps build on its result
	SkippedStep                    // one step is left out; a later step uses its result unjustified
)

var corruptionNames = [...]string{"clean", "wrong-result", "wrong-operand", "skipped-step"}

// String names the corruption: "clean", "wrong-result", "wrong-operand", "skipped-step".
func (c Corruption) String() string {
	if c < 0 || int(c) >= len(corruptionNames) {
		return fmt.Sprintf("Corruption(%d)", int(c))
	}
	return corruptionNames[c]
}

// Labeled is a solution with its exact step labels, for PRM training.
type Labeled struct {
	Prompt     task.Prompt
	Response   string
	Corruption Corruption
	Steps      []task.Step // Steps(Prompt, Response)
	// First is the index in Steps of the step the corruption broke (the
	// first incorrect one), or -1 for a clean solution.
	First int
}

// errNoCorruption says a solution has no step the corruption can break.
var errNoCorruption = errors.New("no step can be broken that way")

// PRMExamples returns n labelled solutions of training problems, a
// function of (task seed, seed): the four corruptions (Clean included, so
// the PRM sees all-correct solutions too) in equal shares, drawn at random.
func (t *Task) PRMExamples(n int, seed uint64) []Labeled {
	if n <= 0 {
		return nil
	}
	rng := rand.New(rand.NewPCG(seed, t.seed^prmStream))
	out := make([]Labeled, 0, n)
	for i := 0; len(out) < n; i++ {
		pr := t.gen.draw(rng, task.Train)
		p := task.Prompt{ID: fmt.Sprintf("arith-prm-%d", i), Text: pr.text, Ref: pr.ref}
		kind := Corruption(rng.IntN(len(corruptionNames)))
		resp, first, err := Corrupt(rng, pr.ref, kind)
		if err != nil {
			continue // a rare problem where every candidate is coincidentally available
		}
		out = append(out, Labeled{Prompt: p, Response: resp, Corruption: kind, Steps: Steps(p, resp), First: first})
	}
	return out
}

// Corruptions names the corruptions in Corruption order: "clean",
// "wrong-result", "wrong-operand", "skipped-step" (task.StepCorrupter).
func (t *Task) Corruptions() []string { return slices.Clone(corruptionNames[:]) }

// Corrupt breaks p's canonical solution by Corruption(kind) (see the
// package function Corrupt); ok is false, with rng untouched, for a prompt
// without a canonical solution (a GSM8K prompt, or one without a Ref), and
// false when the solution cannot be broken that way (task.StepCorrupter).
func (t *Task) Corrupt(rng *rand.Rand, p task.Prompt, kind int) (string, bool) {
	ref, ok := refOf(p)
	if !ok || len(ref.Solution) == 0 || kind < 0 || kind >= len(corruptionNames) {
		return "", false
	}
	resp, _, err := Corrupt(rng, ref, Corruption(kind))
	return resp, err == nil
}

// prmStream separates PRM examples' random stream from the others.
const prmStream = 0x70726d // "prm"

// Corrupt writes ref's solution broken by kind and returns the index of
// the first incorrect step under the Steps rule (-1 for Clean):
//
//   - WrongResult: step k's result is off by 1, 2 or 10; later steps are
//     recomputed from it, so the answer is wrong. First = k.
//   - WrongOperand: one operand of step k is replaced by a nearby number
//     that is neither a prompt number nor an earlier result, and the step
//     computed with it; later steps build on it. First = k.
//   - SkippedStep: a step other than the last is left out; the step that
//     used its result is the first incorrect one. The answer stays right.
//
// The error is errNoCorruption (wrapped) when no step can be broken so
// (a skipped value that is a prompt number anyway).
func Corrupt(rng *rand.Rand, ref Ref, kind Corruption) (response string, first int, err error) {
	steps := slices.Clone(ref.Solution)
	if len(steps) == 0 {
		return "", 0, fmt.Errorf("corrupt %s: %w: the reference has no solution", kind, errNoCorruption)
	}
	switch kind {
	case Clean:
		return render(steps, ref.Answer), -1, nil
	case WrongResult:
		k := rng.IntN(len(steps))
		steps[k].C = slip(rng, steps[k].C)
		if !propagate(steps, k) {
			return "", 0, fmt.Errorf("corrupt %s: overflow", kind)
		}
		return render(steps, fmtInt(steps[len(steps)-1].C)), k, nil
	case WrongOperand:
		k := rng.IntN(len(steps))
		av := newAvail(ref.Numbers)
		for _, s := range steps[:k] {
			av.add(s.C)
		}
		side := rng.IntN(2)
		ops := [2]*int64{&steps[k].A, &steps[k].B}
		for range 20 {
			v := slip(rng, *ops[side])
			if av.has(v) {
				continue
			}
			*ops[side] = v
			c, ok := apply(steps[k].Op, steps[k].A, steps[k].B)
			steps[k].C = c
			if !ok || !propagate(steps, k) {
				return "", 0, fmt.Errorf("corrupt %s: overflow", kind)
			}
			return render(steps, fmtInt(steps[len(steps)-1].C)), k, nil
		}
		return "", 0, fmt.Errorf("corrupt %s: %w", kind, errNoCorruption)
	case SkippedStep:
		for _, k := range rng.Perm(len(steps) - 1) {
			rest := slices.Delete(slices.Clone(steps), k, k+1)
			resp := render(rest, ref.Answer)
			// The labeler decides which step is first wrong; the skip must
			// leave one (its result may be a prompt number by chance).
			p := task.Prompt{Ref: ref}
			for i, s := range Steps(p, resp) {
				if !s.Correct {
					return resp, i, nil
				}
			}
		}
		return "", 0, fmt.Errorf("corrupt %s: %w", kind, errNoCorruption)
	}
	return "", 0, fmt.Errorf("corrupt: unknown corruption %d", int(kind))
}

func fmtInt(v int64) string { return strconv.FormatInt(v, 10) }
