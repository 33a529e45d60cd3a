package ifeval

import (
	"sort"
	"strings"
)

// Judged is whether one response follows each instruction of its prompt,
// in the prompt's order, strictly and loosely (Judge).
type Judged struct {
	IDs    []string `json:"instruction_id_list"`
	Strict []bool   `json:"strict"`
	Loose  []bool   `json:"loose"`
}

// LooseVariants are the eight texts IFEval's loose mode tries (Google's
// evaluation_lib.test_instruction_following_loose), in its order: the
// response, it without any "*", it without its first line, without its
// last line, without both, and those three without "*". The variants
// without a line are trimmed of spaces; the response itself is not.
func LooseVariants(response string) [8]string {
	lines := strings.Split(response, "\n")
	noFirst := stripped(strings.Join(lines[1:], "\n"))
	noLast := stripped(strings.Join(lines[:len(lines)-1], "\n"))
	noBoth := ""
	if len(lines) > 2 {
		noBoth = stripped(strings.Join(lines[1:len(lines)-1], "\n"))
	}
	star := func(s string) string { return strings.ReplaceAll(s, "*", "") }
	return [8]string{response, star(response), noFirst, noLast, noBoth, star(noFirst), star(noLast), star(noBoth)}
}

// Judge checks a response against a prompt's instructions (the items of
// its Ref, in record order; ids[i] names cs[i]) as IFEval does: strictly,
// each constraint on the response as it is; loosely, a constraint is
// followed when it holds on any of the LooseVariants. An empty or
// whitespace-only text follows nothing in either mode (Check).
func Judge(ids []string, cs []Constraint, response string) Judged {
	j := Judged{IDs: ids, Strict: make([]bool, len(cs)), Loose: make([]bool, len(cs))}
	variants := LooseVariants(response)
	for i, c := range cs {
		j.Strict[i] = c.Check(response).OK
		j.Loose[i] = j.Strict[i]
		for _, v := range variants[1:] {
			if j.Loose[i] {
				break
			}
			j.Loose[i] = c.Check(v).OK
		}
	}
	return j
}

// JudgeRef is Judge on the constraints of a prompt made by FromRecord.
func JudgeRef(ref *Ref, response string) Judged {
	ids := make([]string, len(ref.Items))
	cs := make([]Constraint, len(ref.Items))
	for i, it := range ref.Items {
		ids[i], cs[i] = it.Kind, it.Constraint
	}
	return Judge(ids, cs, response)
}

// Accuracy is IFEval's four figures over a set of responses, one per
// prompt: the share of prompts whose instructions all hold (prompt level)
// and the share of all instructions that hold (instruction level), each
// strict and loose; and the same per instruction id.
type Accuracy struct {
	Prompts           int     `json:"prompts"`
	Instructions      int     `json:"instructions"`
	PromptStrict      float64 `json:"prompt_strict"`
	PromptLoose       float64 `json:"prompt_loose"`
	InstructionStrict float64 `json:"instruction_strict"`
	InstructionLoose  float64 `json:"instruction_loose"`
	// Kinds is each instruction id's count and shares followed.
	Kinds map[string]KindAccuracy `json:"kinds,omitempty"`
}

// KindAccuracy is one instruction id's share followed, over its N
// occurrences.
type KindAccuracy struct {
	N      int     `json:"n"`
	Strict float64 `json:"strict"`
	Loose  float64 `json:"loose"`
}

// Score is the Accuracy of judged responses, one per prompt, as IFEval's
// print_report computes it. A prompt without instructions counts as
// followed at prompt level and adds nothing at instruction level; no
// responses give zeros.
func Score(js []Judged) Accuracy {
	a := Accuracy{Prompts: len(js), Kinds: map[string]KindAccuracy{}}
	var ps, pl, is, il int
	for _, j := range js {
		if all(j.Strict) {
			ps++
		}
		if all(j.Loose) {
			pl++
		}
		for i, s := range j.Strict {
			a.Instructions++
			k := a.Kinds[j.IDs[i]]
			k.N++
			if s {
				is++
				k.Strict++
			}
			if j.Loose[i] {
				il++
				k.Loose++
			}
			a.Kinds[j.IDs[i]] = k
		}
	}
	a.PromptStrict, a.PromptLoose = share(ps, a.Prompts), share(pl, a.Prompts)
	a.InstructionStrict, a.InstructionLoose = share(is, a.Instructions), share(il, a.Instructions)
	for id, k := range a.Kinds { // counts so far: make them shares
		k.Strict, k.Loose = k.Strict/float64(k.N), k.Loose/float64(k.N)
		a.Kinds[id] = k
	}
	return a
}

// KindIDs lists a's instruction ids, sorted.
func (a Accuracy) KindIDs() []string {
	ids := make([]string, 0, len(a.Kinds))
	for id := range a.Kinds {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

func all(bs []bool) bool {
	for _, b := range bs {
		if !b {
			return false
		}
	}
	return true
}

func share(n, of int) float64 {
	if of == 0 {
		return 0
	}
	return float64(n) / float64(of)
}
