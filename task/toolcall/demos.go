package toolcall

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/credo-rl/credo/task"
)

// demoStream keeps demonstration draws apart from prompt draws.
const demoStream = 0x64656d6f73 // "demos"

// Demos returns n demonstrations on train prompts: a short thought and the
// reference call, in compact JSON.
//
// With probability c.BlockRate the prompt carries information blocks (the
// format block, the reference block, or both, equally often, composed in
// reward order), and the response follows them: one with the format block
// is well-formed, one with a reference block answers exactly the call the
// block gives, thought included. In half of those (counterShare) the block
// is counterfactual: the call of another request to one of the offered
// tools, which the response follows rather than the user's request. So what
// a block says decides the response, and a policy learns to read it (on the
// prompt alone it learns the request's call, as before); replay relies on
// that. Such a demonstration lists "call" among its Flaws, since it does
// not answer its prompt's own reference. So that each reward's other flaws
// still make up its configured share of all demonstrations, the flaw
// probability among the demonstrations free to break it is
// Rate / (1 - share carrying the reward's block), at most 1.
//
// Format flaws: a missing </tool_call> or </think>, broken JSON (a missing
// closing brace or quote; never when the prompt carries the reference call,
// which the response then copies exactly), the two elements swapped. Call flaws: a wrong
// argument value, a required argument left out, another offered function.
// Flaws lists the rewards broken on purpose, in reward order. A demonstration
// with a format flaw also scores 0 on call, since its call cannot be read.
func (t *Task) Demos(n int, seed uint64, c task.DemoConfig) []task.Demo {
	demos, _, _ := t.demos(n, seed, c)
	return demos
}

// counterShare is the share of reference blocks in demonstrations that
// carry another request's call.
const counterShare = 0.5

// demos also returns each demonstration's Ref and, for a counterfactual
// reference block, the Ref whose call the block gives (else nil), for tests.
func (t *Task) demos(n int, seed uint64, c task.DemoConfig) ([]task.Demo, []*Ref, []*Ref) {
	r := rand.New(rand.NewPCG(seed, demoStream))
	blockRate := min(max(c.BlockRate, 0), 1)
	withBlock := blockRate * 2 / 3 // the share of demonstrations carrying a given block
	formatRate := freeRate(c.Rate("format"), withBlock)
	callRate := freeRate(c.Rate("call"), withBlock)

	demos := make([]task.Demo, 0, max(n, 0))
	refs := make([]*Ref, 0, max(n, 0))
	counters := make([]*Ref, 0, max(n, 0))
	for range n {
		ex := t.drawIn(r, task.Train)
		var formatBlock, refBlock bool
		if r.Float64() < blockRate {
			k := r.IntN(3)
			formatBlock, refBlock = k != 1, k != 0
		}
		answer := ex // the example whose call the response gives
		var counter *Ref
		if refBlock && r.Float64() < counterShare {
			answer = t.counterfactual(r, ex)
			counter = answer.ref
		}
		var blocks, flaws []string
		if formatBlock {
			blocks = append(blocks, FormatBlock)
		}
		if refBlock {
			blocks = append(blocks, ReferenceBlock(answer.ref))
		}
		call := answer.ref.referenceCall()
		callFlawed := !refBlock && r.Float64() < callRate
		if callFlawed {
			call = flawCall(r, ex, call)
		}
		think := t.set.demoThought(r, answer.ref.Answer.Function, answer.think)
		resp := renderResponse(think, call.String())
		if !formatBlock && r.Float64() < formatRate {
			resp = flawFormat(r, think, call.String(), refBlock)
			flaws = append(flaws, "format")
		}
		if callFlawed || counter != nil {
			flaws = append(flaws, "call")
		}
		demos = append(demos, task.Demo{Prompt: task.Compose(ex.text, blocks), Response: resp, Flaws: flaws})
		refs = append(refs, ex.ref)
		counters = append(counters, counter)
	}
	return demos, refs, counters
}

// counterfactual is another request to one of ex's offered tools, with its
// thought and its reference (over ex's tools), whose call differs from
// ex's: what a counterfactual reference block gives.
func (t *Task) counterfactual(r *rand.Rand, ex example) example {
	for {
		name := pick(r, ex.shown)
		d := drawers[name](r, &t.set)
		ref := &Ref{Functions: ex.ref.Functions, Answer: Answer{Function: name, Params: d.args}}
		ref.call = ref.referenceCall().String()
		if !ex.ref.accepts(ref.call) {
			return example{text: ex.text, ref: ref, think: t.set.thought(ex.text, name, d.think), shown: ex.shown}
		}
	}
}

// freeRate is the flaw probability among demonstrations without the
// reward's block that makes the overall share rate.
func freeRate(rate, withBlock float64) float64 {
	if withBlock >= 1 {
		return 0
	}
	return min(max(rate, 0)/(1-withBlock), 1)
}

func renderResponse(think, call string) string {
	return "<think>" + think + "</think><tool_call>" + call + "</tool_call>"
}

// flawFormat renders a response whose format is broken in one of the ways
// a policy breaks it. keepCall keeps the call's text intact (the prompt
// carries the reference call, which the response copies exactly), so only
// the tags break.
func flawFormat(r *rand.Rand, think, call string, keepCall bool) string {
	kind := r.IntN(5)
	if keepCall {
		kind = []int{0, 1, 4}[r.IntN(3)]
	}
	switch kind {
	case 0:
		return "<think>" + think + "</think><tool_call>" + call
	case 1:
		return "<think>" + think + "<tool_call>" + call + "</tool_call>"
	case 2: // the closing brace of the call
		return renderResponse(think, call[:len(call)-1])
	case 3: // the opening quote of "name"
		return renderResponse(think, "{"+call[2:])
	default:
		return "<tool_call>" + call + "</tool_call><think>" + think + "</think>"
	}
}

// flawCall returns the call (an object {"name", "arguments"}) with one
// mistake: a wrong argument value, a required argument left out, or the name
// of another offered tool.
func flawCall(r *rand.Rand, ex example, call Value) Value {
	name, _ := call.Get("name")
	args, _ := call.Get("arguments")
	args.Members = slices.Clone(args.Members)
	fn := ex.ref.function(ex.ref.Answer.Function)
	others := slices.DeleteFunc(slices.Clone(ex.shown), func(s string) bool { return s == fn.Name })
	kind := r.IntN(3)
	if kind == 2 && len(others) == 0 {
		kind = 0 // a single tool offered: no other name to call
	}
	switch kind {
	case 0:
		i := r.IntN(len(args.Members))
		m := &args.Members[i]
		m.Value = wrongValue(r, fn.Name+"."+m.Key, m.Value, ex.ref.accepted(m.Key))
	case 1:
		drop := pick(r, fn.Required)
		args.Members = slices.DeleteFunc(args.Members, func(m Member) bool { return m.Key == drop })
	default:
		name = strVal(pick(r, others))
	}
	return objVal(member("name", name), member("arguments", args))
}

// wrongValue is a value of v's type that the accepted values do not accept:
// another word of the parameter's vocabulary, or another number.
func wrongValue(r *rand.Rand, key string, v Value, acc []Value) Value {
	if v.Kind == String {
		std := stdStrings(acc)
		var others []string
		for _, w := range vocab[key] {
			if !pyIn(strVal(standardize(w)), std) {
				others = append(others, w)
			}
		}
		if len(others) > 0 {
			return strVal(pick(r, others))
		}
		return strVal(v.Str + " x") // every parameter has a vocabulary; a fallback all the same
	}
	delta := 1 + r.IntN(5)
	if v.IsInt() {
		n, _ := strconv.Atoi(v.Num)
		return intVal(n + delta)
	}
	f, _ := strconv.ParseFloat(v.Num, 64)
	s := strconv.FormatFloat(f+float64(delta), 'f', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return numVal(s)
}

// accepts tells whether the call (compact JSON, as a response gives it)
// matches the reference under BFCL's rules.
func (r *Ref) accepts(call string) bool {
	p, fault := parseResponse(renderResponse("", call))
	if fault != nil {
		return false
	}
	m, err := r.Match(p.call)
	return err == nil && m == nil
}
