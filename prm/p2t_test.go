package prm

import (
	"math"
	"strings"
	"testing"

	"github.com/credo-rl/credo/credit"
)

// With the trained fixture as P2T's process reward model, every policy
// token of an arith response gets a token reward: the answer line and the
// end token (an empty byte range) take the last step's, (1 − η)·R̃ (the PRM
// reads nothing after the last step, so their influence is 0), or R̃ itself
// with p2t-step (η = 0), R̃ = 2R − 1 of the last step.
func TestP2TAnswerLineInLastStep(t *testing.T) {
	p, held := fixtureHeld(t, 2, 1) // a clean and a wrong-result solution of one problem each
	b := &credit.Batch{Groups: []int{0, 0}, Scores: [][]float64{{1, 0}}, PRM: p}
	for _, ex := range held {
		offs := make([][2]int, 0, len(ex.Response)+1)
		for j := range len(ex.Response) {
			offs = append(offs, [2]int{j, j + 1})
		}
		offs = append(offs, [2]int{len(ex.Response), len(ex.Response)}) // the end token
		b.Prompts = append(b.Prompts, ex.Prompt)
		b.Responses = append(b.Responses, ex.Response)
		b.Offsets = append(b.Offsets, offs)
		b.Tokens = append(b.Tokens, make([]int32, len(offs)))
	}
	reqs := make([]credit.InfluenceRequest, 2)
	for i := range reqs {
		reqs[i] = credit.InfluenceRequest{Prompt: b.Prompts[i], Response: b.Responses[i], Offsets: b.Offsets[i]}
	}
	infl, err := p.Influence(t.Context(), reqs, credit.NullPad)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"p2t", "p2t-step"} {
		c := credit.DefaultConfig()
		m, err := credit.New(name, c)
		if err != nil {
			t.Fatal(err)
		}
		adv, _, err := m.Advantages(t.Context(), b)
		if err != nil {
			t.Fatal(err)
		}
		eta := c.Eta
		if name == "p2t-step" {
			eta = 0
		}
		for i, resp := range b.Responses {
			steps := infl[i].Steps
			last := steps[len(steps)-1]
			answer := strings.LastIndex(resp, "\n") + 1 // the answer line's first byte (= token)
			if answer <= last.End || !strings.HasPrefix(resp[answer:], "answer:") {
				t.Fatalf("response %q: answer line at %d, last step ends at token %d", resp, answer, last.End)
			}
			rLast := 2/(1+math.Exp(-last.Logit)) - 1
			want := adv.Response[i] + c.Alpha*(1-eta)*rLast
			for tok := answer; tok < len(b.Tokens[i]); tok++ {
				if math.Abs(adv.Tokens[i][tok]-want) > 1e-9 || rLast == 0 {
					t.Errorf("%s response %d token %d (of the answer line or the end): %v, want %v", name, i, tok, adv.Tokens[i][tok], want)
				}
			}
		}
	}
}
