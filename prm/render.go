package prm

import (
	"fmt"
	"sort"
)

// encoded is one (prompt, response) as the PRM reads it:
// tok.EncodePrompt(prompt) followed by the response's tokens.
type encoded struct {
	ids     []int32  // the whole sequence
	start   int      // index in ids of the first response token
	offsets [][2]int // byte range in the response of each response token
	steps   [][2]int // byte ranges of the steps in the response
	ends    []int    // for each step, the index in ids of the token its score is read at
}

// respLen is the number of response tokens.
func (e *encoded) respLen() int { return len(e.ids) - e.start }

// encode renders a response with the given step ranges. Each step's score
// is read at the PRM token holding the step's last byte: the first token
// that has seen the whole step (the model is causal), and the same token
// whatever follows the step. Empty steps are dropped; steps out of order,
// overlapping or outside the response are an error, as is a sequence
// longer than the PRM's context.
func (p *PRM) encode(prompt, response string, steps [][2]int) (encoded, error) {
	head := p.Tok.EncodePrompt(prompt)
	ids, offs := p.Tok.Encode(response)
	e := encoded{ids: append(head, ids...), start: len(head), offsets: offs}
	if p.Context > 0 && len(e.ids) > p.Context {
		return e, fmt.Errorf("%d PRM tokens (prompt %d + response %d) exceed the PRM's context of %d", len(e.ids), len(head), len(ids), p.Context)
	}
	prev := 0
	for j, s := range steps {
		if s[0] < prev || s[1] < s[0] || s[1] > len(response) {
			return e, fmt.Errorf("step %d has byte range [%d, %d): steps must be in order, disjoint and within the response's %d bytes", j, s[0], s[1], len(response))
		}
		prev = s[1]
		if s[0] == s[1] {
			continue
		}
		last := s[1] - 1
		k := sort.Search(len(offs), func(k int) bool { return offs[k][1] > last })
		if k == len(offs) || offs[k][0] > last {
			return e, fmt.Errorf("step %d: no PRM token holds byte %d (the tokenizer's offsets do not tile the response)", j, last)
		}
		e.steps = append(e.steps, s)
		e.ends = append(e.ends, e.start+k)
	}
	return e, nil
}

// checkOffsets validates a policy's token byte ranges for a response of n
// bytes: each within [0, n], in order and disjoint (empty ranges allowed,
// as for an ending EOS).
func checkOffsets(offs [][2]int, n int) error {
	prev := 0
	for t, o := range offs {
		if o[0] < prev || o[1] < o[0] || o[1] > n {
			return fmt.Errorf("policy token %d has byte range [%d, %d): ranges must be in order, disjoint and within the response's %d bytes", t, o[0], o[1], n)
		}
		prev = o[1]
	}
	return nil
}
