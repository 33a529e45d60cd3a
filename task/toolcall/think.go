package toolcall

import (
	"math/rand/v2"
	"strings"
)

// Thought modes (the think setting).
const (
	thinkShort = "short" // "weather in Paris": a few tokens, most of them copied from the request
	thinkPlan  = "plan"  // a free-worded plan of two sentences that names no argument value
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

// plan is a thought of two sentences for a call to tool, each of its
// seven word choices drawn afresh (about 13 bits over ~70 bytes) and none of them an
// argument value. The draws come from a generator seeded by the prompt's
// text and the tool, so a prompt keeps one plan, the prompts themselves
// (and every other draw) are those of the short thought, and a policy
// cannot tell the plan from the prompt: it stays unsure of many tokens
// that no verdict of call quotes, as an instruction-tuned model is of
// its free-form reasoning before a call.
func plan(text, tool string) string {
	h := uint64(14695981039346656037) // FNV-1a of text, a NUL, tool
	for _, c := range []byte(text + "\x00" + tool) {
		h = (h ^ uint64(c)) * 1099511628211
	}
	r := rand.New(rand.NewPCG(h, thinkStream))
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

// thought is a demonstration's thought for a call to tool on a prompt
// with this text: the drawer's short one, or under think=plan a plan.
func (s *settings) thought(text, tool, short string) string {
	if s.think == thinkPlan {
		return plan(text, tool)
	}
	return short
}
