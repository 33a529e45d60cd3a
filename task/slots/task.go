package slots

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/task"
)

func init() { task.Register("slots", New) }

// Pair is one sum of a prompt.
type Pair struct{ A, B int }

// Sum is A + B.
func (p Pair) Sum() int { return p.A + p.B }

// Line is the pair's correct response line, "3+4=7".
func (p Pair) Line() string { return fmt.Sprintf("%d+%d=%d", p.A, p.B, p.Sum()) }

// Ref is the reference a slots prompt carries in task.Prompt.Ref.
type Ref struct {
	Pairs []Pair
}

// Response is the correct response: one line per pair.
func (r Ref) Response() string {
	lines := make([]string, len(r.Pairs))
	for i, p := range r.Pairs {
		lines[i] = p.Line()
	}
	return strings.Join(lines, "\n")
}

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

// Reference is the correct response to a prompt the task made
// (task.Referencer), so the block diagnostic can ask whether a warmed-up
// policy reads its blocks; false for a prompt it did not make.
func (t *Task) Reference(p task.Prompt) (string, bool) {
	r, ok := refOf(p)
	if !ok || len(r.Pairs) == 0 {
		return "", false
	}
	return r.Response(), true
}

// Knobs are the task's difficulty settings.
var knobs = []task.Knob{
	{Name: "slots", Default: "4", Help: "sums per prompt, one reward each (2..8)"},
	{Name: "max", Default: "9", Help: "largest operand (1..99)"},
	{Name: "strict", Default: "1", Help: "1: line k must add the prompt's k-th pair; 0: any correct sum on line k counts (no copying to learn: a warm-up of minutes)"},
}

// Task is the slots task.
type Task struct {
	seed   uint64
	slots  int
	max    int
	strict bool
}

var (
	_ task.Task       = (*Task)(nil)
	_ task.Tunable    = (*Task)(nil)
	_ task.Region     = (*Task)(nil)
	_ task.Referencer = (*Task)(nil)
)

// New builds the slots task from its seed and difficulty settings.
func New(c task.Config) (task.Task, error) {
	if err := c.Difficulty.Check("slots", knobs); err != nil {
		return nil, err
	}
	k, err := c.Difficulty.Int("slots", 4, 2, 8)
	if err != nil {
		return nil, fmt.Errorf("slots: %w", err)
	}
	m, err := c.Difficulty.Int("max", 9, 1, 99)
	if err != nil {
		return nil, fmt.Errorf("slots: %w", err)
	}
	if k > 2*m+1 {
		return nil, fmt.Errorf("slots: slots=%d needs max ≥ %d (the sums of a prompt are distinct, so no block tells another slot's answer)", k, k/2)
	}
	strict, err := c.Difficulty.Int("strict", 1, 0, 1)
	if err != nil {
		return nil, fmt.Errorf("slots: %w", err)
	}
	return &Task{seed: c.Seed, slots: k, max: m, strict: strict == 1}, nil
}

// Name is "slots".
func (t *Task) Name() string { return "slots" }

// Knobs lists the difficulty settings.
func (t *Task) Knobs() []task.Knob { return knobs }

// Prompt returns prompt i of a split, a function of (seed, settings, split,
// i). The generator redraws until the pairs hash into the split, so train
// and test never share a prompt.
func (t *Task) Prompt(split task.Split, i int) task.Prompt {
	if split != task.Test {
		split = task.Train
	}
	rng := rand.New(rand.NewPCG(t.seed, uint64(i)<<1|uint64(split)))
	ref := t.draw(rng, split)
	return task.Prompt{ID: fmt.Sprintf("slots-%s-%d", split, i), Text: promptText(ref), Ref: ref}
}

// draw picks pairs with distinct sums (so one slot's block never tells
// another's answer) until they fall into split.
func (t *Task) draw(rng *rand.Rand, split task.Split) Ref {
	for {
		ref := Ref{Pairs: make([]Pair, t.slots)}
		sums := map[int]bool{}
		for k := range ref.Pairs {
			for {
				p := Pair{A: rng.IntN(t.max + 1), B: rng.IntN(t.max + 1)}
				if !sums[p.Sum()] {
					ref.Pairs[k], sums[p.Sum()] = p, true
					break
				}
			}
		}
		if splitOf(ref) == split {
			return ref
		}
	}
}

// splitOf hashes the pairs (FNV-1a): one prompt in five is a test prompt.
func splitOf(r Ref) task.Split {
	h := uint64(14695981039346656037)
	for _, p := range r.Pairs {
		for _, b := range []byte(strconv.Itoa(p.A) + "+" + strconv.Itoa(p.B) + ",") {
			h ^= uint64(b)
			h *= 1099511628211
		}
	}
	if h%5 == 0 {
		return task.Test
	}
	return task.Train
}

func promptText(r Ref) string {
	var b strings.Builder
	b.WriteString("Add each pair, one line each:")
	for _, p := range r.Pairs {
		fmt.Fprintf(&b, "\n%d+%d", p.A, p.B)
	}
	return b.String()
}

// Rewards are slot1 … slotK, in order.
func (t *Task) Rewards() []reward.Verifier {
	vs := make([]reward.Verifier, t.slots)
	for k := range vs {
		vs[k] = Verifier{Slot: k, Loose: !t.strict}
	}
	return vs
}

// Regions returns, for each reward k, the bytes of response line k (the
// whole line, operands included: the reward reads all of it), or nil when
// the response has no line k.
func (t *Task) Regions(_ task.Prompt, response string) [][][2]int {
	out := make([][][2]int, t.slots)
	for k := range out {
		if s, e, ok := lineRange(response, k); ok {
			out[k] = [][2]int{{s, e}}
		}
	}
	return out
}

// lineRange is the byte range of line k (0-based) of s, newline excluded.
func lineRange(s string, k int) (start, end int, ok bool) {
	for range k {
		nl := strings.IndexByte(s[start:], '\n')
		if nl < 0 {
			return 0, 0, false
		}
		start += nl + 1
	}
	end = len(s)
	if nl := strings.IndexByte(s[start:], '\n'); nl >= 0 {
		end = start + nl
	}
	return start, end, true
}
