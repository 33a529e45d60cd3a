package ifeval

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/credo-rl/credo/task"
)

// The task's reward kinds, in reward order, each backed by one IFEval
// instruction id.
const (
	KindWords     = "words"     // length_constraints:number_words, one bound or two (a range)
	KindInclude   = "include"   // keywords:existence
	KindForbid    = "forbid"    // keywords:forbidden_words
	KindEnd       = "end"       // startend:end_checker
	KindLowercase = "lowercase" // change_case:english_lowercase
	KindNoComma   = "no_comma"  // punctuation:no_comma
	KindBullets   = "bullets"   // detectable_format:number_bullet_lists
	KindTitle     = "title"     // detectable_format:title
)

// kindOrder is the task's reward kinds in reward order.
var kindOrder = []string{KindWords, KindInclude, KindForbid, KindEnd, KindLowercase, KindNoComma, KindBullets, KindTitle}

// kindID maps each kind to the IFEval instruction id that judges it.
var kindID = map[string]string{
	KindWords:     "length_constraints:number_words",
	KindInclude:   "keywords:existence",
	KindForbid:    "keywords:forbidden_words",
	KindEnd:       "startend:end_checker",
	KindLowercase: "change_case:english_lowercase",
	KindNoComma:   "punctuation:no_comma",
	KindBullets:   "detectable_format:number_bullet_lists",
	KindTitle:     "detectable_format:title",
}

// Kinds lists the task's reward kinds in reward order.
func Kinds() []string { return slices.Clone(kindOrder) }

// KindID is the IFEval instruction id that judges a kind ("" for an
// unknown kind).
func KindID(kind string) string { return kindID[kind] }

// spec is a generated prompt before rendering: its topic and the
// parameters of each constraint it has.
type spec struct {
	topic   *topic
	request string
	has     map[string]bool
	lo, hi  int    // words: at least lo (0: no lower bound), less than hi (0: no upper bound)
	include string // keyword to include
	forbid  string // keyword to avoid
	end     string // end phrase
	bullets int    // exact number of bullet points
}

// drawSpec draws s.min to s.max constraint kinds (2 to 6 by default)
// among s.kinds, with parameters that can all be met together: the
// included and forbidden keywords differ and neither contains the other,
// the end phrase holds neither a comma nor the forbidden word, and word
// bounds leave room for the other constraints (and for a demonstration to
// miss them on either side).
func drawSpec(rng *rand.Rand, s *settings) *spec {
	tp := &topics[rng.IntN(len(topics))]
	sp := &spec{topic: tp, request: fmt.Sprintf(requests[rng.IntN(len(requests))], tp.name), has: map[string]bool{}}
	n := s.min + rng.IntN(s.max-s.min+1)
	for _, i := range rng.Perm(len(s.kinds))[:n] {
		sp.has[s.kinds[i]] = true
	}
	if sp.has[KindInclude] {
		sp.include = tp.nouns[rng.IntN(len(tp.nouns))]
	}
	if sp.has[KindEnd] {
		sp.end = endPhrases[rng.IntN(len(endPhrases))]
	}
	if sp.has[KindForbid] {
		var cands []string
		for _, w := range tp.nouns {
			clash := sp.include != "" && (strings.Contains(w, sp.include) || strings.Contains(sp.include, w))
			if !clash && !strings.Contains(tp.name, w) && !strings.Contains(strings.ToLower(sp.end), w) {
				cands = append(cands, w)
			}
		}
		sp.forbid = cands[rng.IntN(len(cands))]
	}
	if sp.has[KindBullets] {
		sp.bullets = 2 + rng.IntN(3)
	}
	if sp.has[KindWords] {
		need := 6 + 3*sp.bullets // a body sentence and the bullet points
		if sp.has[KindTitle] {
			need += 3
		}
		if sp.end != "" {
			need += countWords(sp.end)
		}
		switch rng.IntN(3) {
		case 0:
			sp.lo = need + 4 + rng.IntN(8)
		case 1:
			sp.hi = need + 10 + rng.IntN(15)
		default:
			sp.lo = need + 4 + rng.IntN(6)
			sp.hi = sp.lo + 10 + rng.IntN(10)
		}
	}
	return sp
}

// items builds the prompt's constraints through Parse, in kind order, so
// that generated prompts are judged by the same checkers as IFEval's.
func (sp *spec) items() []Item {
	var out []Item
	add := func(kind string, kwargs map[string]any) {
		c, err := Parse(kindID[kind], kwargs)
		if err != nil { // the generator's own arguments are always valid
			panic(fmt.Sprintf("ifeval: generated %s constraint: %v", kind, err))
		}
		out = append(out, Item{Kind: kind, Constraint: c})
	}
	for _, k := range kindOrder {
		if !sp.has[k] {
			continue
		}
		switch k {
		case KindWords:
			if sp.lo > 0 {
				add(k, map[string]any{"relation": "at least", "num_words": float64(sp.lo)})
			}
			if sp.hi > 0 {
				add(k, map[string]any{"relation": "less than", "num_words": float64(sp.hi)})
			}
		case KindInclude:
			add(k, map[string]any{"keywords": []any{sp.include}})
		case KindForbid:
			add(k, map[string]any{"forbidden_words": []any{sp.forbid}})
		case KindEnd:
			add(k, map[string]any{"end_phrase": sp.end})
		case KindBullets:
			add(k, map[string]any{"num_bullets": float64(sp.bullets)})
		default:
			add(k, nil)
		}
	}
	return out
}

// promptText renders the prompt the policy is asked: the request, then the
// information block of each kind the prompt has, in kind order, as
// task.Compose lays blocks out. The constraints are stated only there, so
// the replay prompt composed after the request alone (Ref.ReplayBase)
// without block k states nothing of kind k, and the full one is this text.
func promptText(request string, items []Item) string {
	return task.Compose(request, kindBlocks(items, nil))
}

// kindBlocks is the block of each kind items has, in kind order, leaving
// out the kinds in drop.
func kindBlocks(items []Item, drop []string) []string {
	all := blocksOf(items)
	var out []string
	for _, k := range kindOrder {
		if b, ok := all[k]; ok && !slices.Contains(drop, k) {
			out = append(out, b)
		}
	}
	return out
}

// splitOf assigns a prompt text to a split by its hash, so that the same
// text always lands in the same split whatever the seed or index: one in
// five prompts is a test prompt.
func splitOf(text string) task.Split {
	h := fnv.New64a()
	h.Write([]byte(text))
	if h.Sum64()%5 == 0 {
		return task.Test
	}
	return task.Train
}

// blocksOf is the information block of each kind present, in kind order:
// the text of its constraints.
func blocksOf(items []Item) map[string]string {
	out := map[string]string{}
	for _, it := range items {
		if b, ok := out[it.Kind]; ok {
			out[it.Kind] = b + " " + it.Constraint.Text()
		} else {
			out[it.Kind] = it.Constraint.Text()
		}
	}
	return out
}
