package toolcall

import (
	"math/rand/v2"
	"strings"
)

// Thought modes (the think setting).
const (
	thinkShort  = "short"  // "weather in Paris": a few tokens, most of them copied from the request
	thinkPlan   = "plan"   // a free-worded plan of two sentences, one per prompt, that names no argument value
	thinkVaried = "varied" // such a plan drawn afresh for every demonstration
)

// thinkStream keeps the plan's draws apart from every other draw.
const thinkStream = 0x7468696e6b // "think"

// intents say what each tool is for, in words a plan may use.
var intents = map[string][]string{
	"weather":   {"the weather", "a forecast", "the temperature"},
	"convert":   {"a currency conversion", "an exchange rate", "money converted"},
	"timer":     {"a timer", "a countdown", "a reminder"},
	"translate": {"a translation", "a phrase in another language", "some words translated"},
	"search":    {"a web search", "some search results", "a lookup online"},
}

// plan is a thought of two sentences for a call to tool, drawn by
// planFrom from a generator seeded by the prompt's text and the tool: a
// prompt keeps one plan, and the prompts themselves (and every other draw)
// are those of the short thought. On a task of few distinct prompts (212
// train prompts at tools=1,vocab=4,max=1) a policy learns each prompt's
// plan and is sure of it; think=varied demonstrates each prompt with
// plans drawn afresh, so the policy learns their distribution instead.
func plan(text, tool string) string {
	return planFrom(rand.New(rand.NewPCG(fnv1a(text+"\x00"+tool), thinkStream)), tool)
}

// planFrom draws a plan's seven word choices of three or four each (about
// 14 bits over ~70 bytes), none of them an argument value: tokens a policy
// that learned their distribution stays unsure of and no verdict of call
// quotes, as an instruction-tuned model is of its free-form reasoning
// before a call.
func planFrom(r *rand.Rand, tool string) string {
	var b strings.Builder
	b.WriteString(pick(r, []string{"The user wants ", "They ask for ", "The request is for ", "This calls for "}))
	b.WriteString(pick(r, intents[tool]))
	b.WriteString(pick(r, []string{".", " now.", " here.", " today."}))
	b.WriteString(pick(r, []string{" I will", " Let me", " Next I", " So I"}))
	b.WriteString(pick(r, []string{" fill in", " copy", " write", " pass"}))
	b.WriteString(pick(r, []string{" the arguments", " each value", " the fields", " every value"}))
	b.WriteString(pick(r, []string{" as asked.", " from the message.", " exactly.", " one by one."}))
	return b.String()
}

// thought is a prompt's thought for a call to tool on a prompt with this
// text (its reference response's): the drawer's short one, or a plan.
func (s *settings) thought(text, tool, short string) string {
	if s.think == thinkShort {
		return short
	}
	return plan(text, tool)
}

// demoThought is a demonstration's thought: the prompt's own, or under
// think=varied a plan drawn from the demonstrations' generator r.
func (s *settings) demoThought(r *rand.Rand, tool, own string) string {
	if s.think == thinkVaried {
		return planFrom(r, tool)
	}
	return own
}
