package sql

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"

	"github.com/credo-rl/credo/task"
)

// Thought modes (the think setting).
const (
	thinkShort  = "short"  // the template's few-word plan: "filter customers by city"
	thinkVaried = "varied" // that plan inside two free-worded sentences drawn per demonstration
)

// streamThink keeps the plans' draws apart from every other draw, so
// think=varied asks the same questions with the same flaws and blocks as
// think=short and only the words in <think> differ.
const streamThink = 0x5d1_7417

// selectThink reads the think setting.
func selectThink(d task.Difficulty) (string, error) {
	switch v, ok := d["think"]; {
	case !ok:
		return thinkShort, nil
	case v == thinkShort || v == thinkVaried:
		return v, nil
	default:
		return "", fmt.Errorf("difficulty think=%s: want %s or %s", v, thinkShort, thinkVaried)
	}
}

// planFrom draws a plan around the template's short one: six word choices
// of four each (12 bits over ~55 bytes), none a table, column or keyword
// of the query. A policy that learned their distribution stays unsure of
// these tokens, which no executes or result verdict quotes, as an
// instruction-tuned model is of its free-form reasoning before a query.
func planFrom(r *rand.Rand, short string) string {
	var b strings.Builder
	b.WriteString(pick(r, []string{"The question wants me to ", "I am asked to ", "The task is to ", "Here I need to "}))
	b.WriteString(short)
	b.WriteString(pick(r, []string{".", " first.", " here.", " now."}))
	b.WriteString(pick(r, []string{" I will", " Let me", " Next I", " So I"}))
	b.WriteString(pick(r, []string{" write", " build", " form", " give"}))
	b.WriteString(pick(r, []string{" one query", " a single query", " the query", " my query"}))
	b.WriteString(pick(r, []string{" that runs.", " for it.", " with care.", " step by step."}))
	return b.String()
}

// refPlan is a prompt's own plan under think=varied (its reference
// response's), drawn from a generator seeded by the prompt's text, so a
// prompt keeps one reference.
func refPlan(text, short string) string {
	h := fnv.New64a()
	h.Write([]byte(text))
	return planFrom(rand.New(rand.NewPCG(h.Sum64(), streamThink)), short)
}

// demoThought is a demonstration's thought for a question whose template
// plan is short: that plan, or under think=varied a plan drawn from r.
func (t *Task) demoThought(r *rand.Rand, short string) string {
	if t.think == thinkVaried {
		return planFrom(r, short)
	}
	return short
}

// refThought is the thought of the reference response to a prompt with
// this text: the template plan, or under think=varied the prompt's own.
func (t *Task) refThought(text, short string) string {
	if t.think == thinkVaried {
		return refPlan(text, short)
	}
	return short
}
