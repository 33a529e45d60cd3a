package task

import (
	"fmt"
	"math/rand/v2"
	"sync"

	"github.com/credo-rl/credo/internal/registry"
	"github.com/credo-rl/credo/reward"
)

// Prompt is the question put to the policy (see reward.Prompt).
type Prompt = reward.Prompt

// Split selects the training or the held-out prompts. The two never share a
// prompt.
type Split int

const (
	Train Split = iota
	Test
)

func (s Split) String() string {
	if s == Test {
		return "test"
	}
	return "train"
}

// Task is a prompt generator with its rewards.
type Task interface {
	Name() string
	// Prompt returns prompt i of a split. The same task configuration and i
	// always give the same prompt, so a resumed run sees the same data.
	Prompt(split Split, i int) Prompt
	// Rewards lists the task's verifiers, in reward order.
	Rewards() []reward.Verifier
	// Demos returns n demonstrations for supervised warm-up, seeded.
	Demos(n int, seed uint64, c DemoConfig) []Demo
}

// Demo is one supervised warm-up example.
type Demo struct {
	Prompt   string   // the prompt text, possibly followed by information blocks (see Compose)
	Response string   // what the policy should answer
	Flaws    []string // names of the rewards this demonstration breaks on purpose
}

// DemoConfig controls how demonstrations are made.
type DemoConfig struct {
	// FlawRate is, per reward name, the share of demonstrations that break
	// that reward in a realistic way. A missing name uses DefaultFlawRate.
	FlawRate map[string]float64
	// DefaultFlawRate is the flaw rate for rewards FlawRate does not name.
	DefaultFlawRate float64
	// BlockRate is the share of demonstrations whose prompt also carries
	// some of the rewards' information blocks, which the response follows.
	BlockRate float64
}

// DefaultDemoConfig flaws 15% of demonstrations per reward (enough for a
// warmed-up policy to still have something to learn) and gives 30% of them
// information blocks (enough for the policy to learn to read them).
func DefaultDemoConfig() DemoConfig {
	return DemoConfig{DefaultFlawRate: 0.15, BlockRate: 0.3}
}

// Rate is the flaw rate of the named reward.
func (c DemoConfig) Rate(name string) float64 {
	if r, ok := c.FlawRate[name]; ok {
		return r
	}
	return c.DefaultFlawRate
}

// Step is one reasoning step of a response, for process reward models.
type Step struct {
	Start, End int  // byte range in the response, separator excluded
	Correct    bool // the step's exact label
}

// StepLabeler is an optional capability of tasks whose responses split into
// steps with exact labels (arith). Find it by type assertion. A task that
// has it also registers it by name (RegisterSteps), so that a process
// reward model can split responses without building the task.
type StepLabeler interface {
	Steps(p Prompt, response string) []Step
}

// StepCorrupter is an optional capability of tasks whose prompts carry a
// reference solution in steps that can be broken on purpose: the exact
// labelled data a process reward model trains on (prm.Synthetic). Any task
// with it can train a PRM; arith has it. Find it by type assertion.
type StepCorrupter interface {
	StepLabeler
	// Corruptions names the ways Corrupt can break a solution. Kind 0 is
	// the solution left intact, "clean".
	Corruptions() []string
	// Corrupt writes p's reference solution broken the kind-th way (an
	// index into Corruptions), drawing what it needs from rng; its labels
	// are Steps(p, response), with at least one wrong step unless kind is
	// 0. ok is false, and rng untouched, when p has no reference solution;
	// ok is false too when the solution cannot be broken that way.
	Corrupt(rng *rand.Rand, p Prompt, kind int) (response string, ok bool)
}

// Compose is reward.Compose, kept here for the tasks' demonstrations.
func Compose(prompt string, blocks []string) string { return reward.Compose(prompt, blocks) }

// Config is what every task takes.
type Config struct {
	Seed uint64 // drives the prompt generator and any generated data (databases, tools)
	// Dir is where a task may write generated data (the sql task's
	// database). Empty means a fresh temporary directory.
	Dir string
	// Difficulty holds the task's difficulty settings (see Tunable); a
	// task without settings rejects any.
	Difficulty Difficulty
}

// tasks is filled by init functions and only read afterwards.
var tasks = registry.New[func(Config) (Task, error)]("task")

// Register adds a task constructor. A duplicate name panics.
func Register(name string, f func(Config) (Task, error)) { tasks.Add(name, f) }

// New builds the named task. An unknown name's error lists the known ones.
func New(name string, c Config) (Task, error) {
	f, err := tasks.Get(name)
	if err != nil {
		return nil, err
	}
	t, err := f(c)
	if err != nil {
		return nil, err
	}
	if _, tunable := t.(Tunable); !tunable && len(c.Difficulty) > 0 {
		if cl, ok := t.(interface{ Close() error }); ok {
			cl.Close()
		}
		return nil, fmt.Errorf("task %s has no difficulty settings (got %s)", name, c.Difficulty)
	}
	return t, nil
}

// The step labelers of tasks, by task name, for splitting responses
// without building a task (building sql's builds a database).
var stepRegistry = struct {
	sync.Mutex
	l map[string]StepLabeler
}{l: map[string]StepLabeler{}}

// RegisterSteps makes a task's step labeler available by the task's name
// (StepsOf), from the init function that registers the task. The labeler
// must need no state of a built task: it is what the task's own Steps
// method does. A duplicate name panics.
func RegisterSteps(name string, l StepLabeler) {
	stepRegistry.Lock()
	defer stepRegistry.Unlock()
	if _, dup := stepRegistry.l[name]; dup || l == nil {
		panic(fmt.Sprintf("task: step labeler %q registered twice (or nil)", name))
	}
	stepRegistry.l[name] = l
}

// StepsOf returns the step labeler registered for the named task; ok is
// false when the task labels no steps (or is unknown).
func StepsOf(name string) (l StepLabeler, ok bool) {
	stepRegistry.Lock()
	defer stepRegistry.Unlock()
	l, ok = stepRegistry.l[name]
	return l, ok
}

// Names lists the registered tasks in sorted order.
func Names() []string { return tasks.Names() }
