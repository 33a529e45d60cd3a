package toolcall

import (
	"fmt"
	"math/rand/v2"

	"github.com/credo-rl/credo/task"
)

// knobs are the task's difficulty settings; their defaults give the
// prompts the task made before it had settings.
var knobs = []task.Knob{
	{Name: "tools", Default: "2", Help: "tools offered per prompt, the target among them (1..5); more tools, more to choose from and a longer prompt"},
	{Name: "optional", Default: "mixed", Help: "optional arguments (weather unit, timer label, search limit): mixed (the request states them in 1/3 to 1/2 of prompts), omit (never stated: fewer arguments to write), state (always stated: more)"},
	{Name: "vocab", Default: "20", Help: "words each free-string argument (city, label, phrase, query, currency) draws from: the first N of its list (2..20; 20 is every list whole)"},
	{Name: "max", Default: "500", Help: "largest number a request states (1..500): timer minutes, convert amounts and search limits are drawn from 1..min(max, the tool's own 90, 500, 20); a small policy copies a number of a few values as it copies a word"},
	{Name: "think", Default: "short", Help: "the demonstrations' thought: short (\"weather in Paris\", mostly copied from the request), plan (two free-worded sentences, ~70 bytes, naming no argument value, one per prompt, which a policy can learn when prompts are few) or varied (such a plan drawn afresh for every demonstration: tokens the policy stays unsure of that no call verdict quotes)"},
}

// Optional-argument modes.
const (
	optMixed = "mixed"
	optOmit  = "omit"
	optState = "state"
)

// settings are the parsed difficulty settings.
type settings struct {
	tools    int    // tools offered per prompt
	optional string // optMixed, optOmit or optState
	vocab    int    // words per free-string vocabulary
	max      int    // largest number a request states
	think    string // thinkShort, thinkPlan or thinkVaried
}

// readSettings checks d against knobs and reads it.
func readSettings(d task.Difficulty) (settings, error) {
	if err := d.Check("toolcall", knobs); err != nil {
		return settings{}, err
	}
	var s settings
	var err error
	if s.tools, err = d.Int("tools", 2, 1, len(toolSchemas)); err != nil {
		return s, err
	}
	if s.vocab, err = d.Int("vocab", 20, 2, 20); err != nil {
		return s, err
	}
	if s.max, err = d.Int("max", 500, 1, 500); err != nil {
		return s, err
	}
	s.optional = optMixed
	if v, ok := d["optional"]; ok {
		if v != optMixed && v != optOmit && v != optState {
			return s, fmt.Errorf("difficulty optional=%s: want mixed, omit or state", v)
		}
		s.optional = v
	}
	s.think = thinkShort
	if v, ok := d["think"]; ok {
		if v != thinkShort && v != thinkPlan && v != thinkVaried {
			return s, fmt.Errorf("difficulty think=%s: want short, plan or varied", v)
		}
		s.think = v
	}
	return s, nil
}

// omit draws whether the request leaves an optional argument out: with
// probability 1/n under mixed (the draw the task always made), always
// under omit, never under state. It draws from r in every mode, so the
// other draws of a prompt do not shift.
func (s *settings) omit(r *rand.Rand, n int) bool {
	x := r.IntN(n) == 0
	switch s.optional {
	case optOmit:
		return true
	case optState:
		return false
	}
	return x
}

// number draws from 1..min(s.max, n); at the default it is the draw the
// task made before the setting existed.
func (s *settings) number(r *rand.Rand, n int) int { return 1 + r.IntN(min(s.max, n)) }

// words is the first s.vocab words of a vocabulary (all of a shorter one).
func (s *settings) words(xs []string) []string { return xs[:min(s.vocab, len(xs))] }

// Knobs lists the difficulty settings (task.Tunable).
func (t *Task) Knobs() []task.Knob { return knobs }
