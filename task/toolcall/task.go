package toolcall

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"

	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/task"
)

func init() { task.Register("toolcall", New) }

// Task generates tool-calling prompts over the made-up tools.
type Task struct {
	seed  uint64
	tools []Function
	sigs  []string // Signature of each tool
	set   settings
}

var (
	_ task.Task    = (*Task)(nil)
	_ task.Tunable = (*Task)(nil)
)

// New builds the task. c.Seed drives the prompts; c.Dir is not used;
// c.Difficulty holds the settings of Knobs.
func New(c task.Config) (task.Task, error) {
	set, err := readSettings(c.Difficulty)
	if err != nil {
		return nil, fmt.Errorf("toolcall: %w", err)
	}
	tools, err := parseTools()
	if err != nil {
		return nil, fmt.Errorf("toolcall: %w", err)
	}
	sigs := make([]string, len(tools))
	for i, f := range tools {
		sigs[i] = Signature(f)
	}
	return &Task{seed: c.Seed, tools: tools, sigs: sigs, set: set}, nil
}

// Name is "toolcall".
func (t *Task) Name() string { return "toolcall" }

// Rewards are format, then call.
func (t *Task) Rewards() []reward.Verifier {
	return []reward.Verifier{FormatVerifier{}, CallVerifier{}}
}

// testShare is one over the share of distinct prompts in the test split.
const testShare = 5

// SplitOf is the split a prompt text belongs to: a hash of the text, so
// train and test can never share a prompt, whatever the seed.
func SplitOf(text string) task.Split {
	if fnv1a(text)%testShare == 0 {
		return task.Test
	}
	return task.Train
}

// Prompt returns prompt i of a split. It draws prompts from a generator
// seeded by (Config.Seed, split, i) until one falls in the split, so the
// result depends on nothing else.
func (t *Task) Prompt(split task.Split, i int) task.Prompt {
	r := rand.New(rand.NewPCG(t.seed, splitmix(uint64(i)<<1|uint64(split&1))))
	ex := t.drawIn(r, split)
	return task.Prompt{ID: fmt.Sprintf("toolcall-%s-%d", split, i), Text: ex.text, Ref: ex.ref}
}

// example is one generated prompt with what a demonstration needs.
type example struct {
	text  string
	ref   *Ref
	think string
	shown []string // the offered tools' names, in prompt order
}

// drawIn draws examples until one is in the split. A fifth of prompts are
// test prompts, so this takes 1.25 draws on average for train and 5 for test.
func (t *Task) drawIn(r *rand.Rand, split task.Split) example {
	for {
		if ex := t.draw(r); SplitOf(ex.text) == split {
			// NewRef's checks hold by construction: the target is offered,
			// and parseTools checked the schema types.
			ex.ref.call = ex.ref.referenceCall().String()
			ex.think = t.set.thought(ex.text, ex.ref.Answer.Function, ex.think)
			ex.ref.think = ex.think
			return ex
		}
	}
}

// draw generates one prompt: the target tool and set.tools-1 others, the
// target at a uniform position (as in BFCL's multiple category), then the
// user's request. The default two tools keep prompts short enough for a
// 256-byte context with the response.
func (t *Task) draw(r *rand.Rand) example {
	k := t.set.tools
	order := r.Perm(len(t.tools))
	shown := order[:k]
	target := t.tools[shown[0]]
	// position k-1-j for a uniform j: with two tools, the draw that put
	// the target second before the setting existed.
	pos := k - 1 - r.IntN(k)
	shown[0], shown[pos] = shown[pos], shown[0]
	d := drawers[target.Name](r, &t.set)

	ref := &Ref{Answer: Answer{Function: target.Name, Params: d.args}}
	sigs := make([]string, k)
	names := make([]string, k)
	for j, i := range shown {
		ref.Functions = append(ref.Functions, t.tools[i])
		sigs[j], names[j] = t.sigs[i], t.tools[i].Name
	}
	text := "Tools: " + strings.Join(sigs, "; ") + "\nUser: " + d.request
	return example{text: text, ref: ref, think: d.think, shown: names}
}

// fnv1a is the 64-bit FNV-1a hash of s.
func fnv1a(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// splitmix spreads consecutive stream numbers over the generator's state.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// Reference is the clean demonstration of a generated prompt: its thought
// and the reference call (task.Referencer); false for a prompt the task did
// not generate (a BFCL record).
func (t *Task) Reference(p task.Prompt) (string, bool) {
	ref, ok := p.Ref.(*Ref)
	if !ok || ref == nil || ref.think == "" {
		return "", false
	}
	return renderResponse(ref.think, ref.call), true
}
