package arith

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/credo-rl/credo/task"
)

// demoStream separates the demonstration generator's random stream from
// the prompts' (which use streams 2i and 2i+1).
const demoStream = 0x64656d6f // "demo"

// demo is a demonstration with the prompt it answers, for tests and
// benchmarks that verify it.
type demo struct {
	task.Demo
	prompt task.Prompt
}

// Demos returns n demonstrations on training problems, a function of
// (task seed, seed, c).
//
// With probability c.BlockRate the prompt carries information blocks
// (task.Compose, in reward order): the reference answer, the format, or
// both, each case equally likely; a demonstration never flaws what a block
// it carries tells. Independently of that, a demonstration breaks the
// answer reward with probability c.Rate("answer") — an arithmetic slip in
// one step that propagates to the answer, or a wrong final copy — and the
// format reward with probability c.Rate("format") — a step written in
// words, an extra line after the answer line, or (only when the answer is
// broken too, since it breaks both) a missing answer line. To keep those
// rates exact despite the blocks, a demonstration without a reward's block
// is flawed with probability rate / (1 − BlockRate·2/3), capped at 1.
// Demo.Flaws lists the rewards broken, in reward order.
func (t *Task) Demos(n int, seed uint64, c task.DemoConfig) []task.Demo {
	ds := t.demos(n, seed, c)
	if ds == nil {
		return nil
	}
	out := make([]task.Demo, len(ds))
	for i, d := range ds {
		out[i] = d.Demo
	}
	return out
}

func (t *Task) demos(n int, seed uint64, c task.DemoConfig) []demo {
	if n <= 0 {
		return nil
	}
	rng := rand.New(rand.NewPCG(seed, t.seed^demoStream))
	blockRate := clamp01(c.BlockRate)
	free := 1 - blockRate*2/3 // P(a given block is absent)
	pAnswer := flawGivenNoBlock(c.Rate("answer"), free)
	pFormat := flawGivenNoBlock(c.Rate("format"), free)
	out := make([]demo, n)
	for i := range out {
		pr := t.gen.draw(rng, task.Train)
		var ansBlock, fmtBlock bool
		if rng.Float64() < blockRate {
			switch rng.IntN(3) {
			case 0:
				ansBlock = true
			case 1:
				fmtBlock = true
			default:
				ansBlock, fmtBlock = true, true
			}
		}
		flawAnswer := !ansBlock && rng.Float64() < pAnswer
		flawFormat := !fmtBlock && rng.Float64() < pFormat
		var blocks []string
		if ansBlock {
			blocks = append(blocks, AnswerBlock(pr.ref.Answer))
		}
		if fmtBlock {
			blocks = append(blocks, FormatBlock)
		}
		d := demo{prompt: task.Prompt{ID: fmt.Sprintf("arith-demo-%d", i), Text: pr.text, Ref: pr.ref}}
		d.Prompt = task.Compose(pr.text, blocks)
		d.Response = flawed(rng, pr.ref, flawAnswer, flawFormat)
		if flawAnswer {
			d.Flaws = append(d.Flaws, "answer")
		}
		if flawFormat {
			d.Flaws = append(d.Flaws, "format")
		}
		out[i] = d
	}
	return out
}

// flawGivenNoBlock is the flaw probability among demonstrations without
// the reward's block that gives the overall rate.
func flawGivenNoBlock(rate, free float64) float64 {
	rate = clamp01(rate)
	if free <= 0 {
		return 0
	}
	return min(1, rate/free)
}

func clamp01(x float64) float64 {
	if !(x > 0) { // also NaN
		return 0
	}
	return min(x, 1)
}

// flawed writes the canonical solution of ref, broken as asked.
func flawed(rng *rand.Rand, ref Ref, breakAnswer, breakFormat bool) string {
	steps := append([]SolStep(nil), ref.Solution...)
	answer := ref.Answer
	if breakAnswer {
		answer = wrongAnswer(rng, steps, ref.Answer)
	}
	lines := make([]string, 0, len(steps)+2)
	for _, s := range steps {
		lines = append(lines, s.Eq.String())
	}
	answerLine := "answer: " + answer
	if !breakFormat {
		return strings.Join(append(lines, answerLine), "\n")
	}
	kinds := 2
	if breakAnswer {
		kinds = 3 // a missing answer line also breaks the answer reward
	}
	switch rng.IntN(kinds) {
	case 0: // one step written in words
		k := rng.IntN(len(steps))
		lines[k] = inWords(rng, steps[k].Eq)
		lines = append(lines, answerLine)
	case 1: // an extra line after the answer line
		extra := []string{"Done.", "The answer is " + answer + ".", lines[len(lines)-1]}
		lines = append(lines, answerLine, extra[rng.IntN(len(extra))])
	default: // no answer line
		if rng.IntN(2) == 0 {
			lines = append(lines, "So the result is "+answer+".")
		}
	}
	return strings.Join(lines, "\n")
}

// wrongAnswer breaks the answer: an arithmetic slip in one step that
// propagates through the later steps (changing steps in place), or a
// wrong copy of a correct final result. The result always differs from
// the reference.
func wrongAnswer(rng *rand.Rand, steps []SolStep, ref string) string {
	if rng.IntN(5) < 3 {
		k := rng.IntN(len(steps))
		orig := steps[k].C
		steps[k].C = slip(rng, orig)
		if propagate(steps, k) {
			if a := strconv.FormatInt(steps[len(steps)-1].C, 10); a != ref {
				return a
			}
		}
		steps[k].C = orig // cannot happen with the generator's values; stay safe
		propagate(steps, k)
	}
	v, err := strconv.ParseInt(ref, 10, 64)
	if err != nil {
		return ref + "0"
	}
	return strconv.FormatInt(slip(rng, v), 10)
}

// slip changes a number the way hurried arithmetic does: off by 1, 2 or
// 10, never below zero.
func slip(rng *rand.Rand, v int64) int64 {
	d := [...]int64{1, 2, 10}[rng.IntN(3)]
	if rng.IntN(2) == 0 && v-d >= 0 {
		return v - d
	}
	return v + d
}

// propagate recomputes every step after k from its sources, so a changed
// result flows into the steps that use it. False on overflow.
func propagate(steps []SolStep, k int) bool {
	for j := k + 1; j < len(steps); j++ {
		s := &steps[j]
		if f := s.From[0]; f >= 0 {
			s.A = steps[f].C
		}
		if f := s.From[1]; f >= 0 {
			s.B = steps[f].C
		}
		c, ok := apply(s.Op, s.A, s.B)
		if !ok {
			return false
		}
		s.C = c
	}
	return true
}

// inWords writes a step in words, the commonest format slip.
func inWords(rng *rand.Rand, e Eq) string {
	word := map[byte]string{'+': "plus", '-': "minus", '*': "times"}[e.Op]
	verb := [...]string{"equals", "is"}[rng.IntN(2)]
	return fmt.Sprintf("%d %s %d %s %d", e.A, word, e.B, verb, e.C)
}

// Reference is the canonical solution of a problem the task made, steps
// and answer line (task.Referencer); false for a GSM8K prompt, which has
// none.
func (t *Task) Reference(p task.Prompt) (string, bool) {
	ref, ok := refOf(p)
	if !ok || len(ref.Solution) == 0 {
		return "", false
	}
	return ref.Response(), true
}
