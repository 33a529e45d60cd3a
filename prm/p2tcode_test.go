package prm

import (
	"math"
	"testing"

	"github.com/credo-rl/credo/credit"
)

// With the trained fixture as the PRM, p2t-code gives every token of a
// step A_outcome + 0.1·N_s·R̃_s·softmax(I)[t] + 0.1·R̃_s from the influence
// the PRM returns for its requests (logit target, mean carry), and the end
// token A_outcome alone.
func TestP2TCodeWithPRM(t *testing.T) {
	p, held := fixtureHeld(t, 2, 1)
	b := &credit.Batch{Groups: []int{0, 0}, Scores: [][]float64{{1, 0}}, PRM: p}
	reqs := make([]credit.InfluenceRequest, len(held))
	for i, ex := range held {
		offs := byteOffsets(len(ex.Response)) // ends with the end token
		b.Prompts, b.Responses = append(b.Prompts, ex.Prompt), append(b.Responses, ex.Response)
		b.Offsets, b.Tokens = append(b.Offsets, offs), append(b.Tokens, make([]int32, len(offs)))
		reqs[i] = credit.InfluenceRequest{Prompt: ex.Prompt, Response: ex.Response, Offsets: offs,
			Target: credit.TargetLogit, Carry: credit.CarryMean}
	}
	infl, err := p.Influence(t.Context(), reqs, credit.NullPad)
	if err != nil {
		t.Fatal(err)
	}
	// The mean carry: a byte outside every step (a separator, the answer
	// line) has no influence; the sum carry gives it the PRM's.
	sums := append([]credit.InfluenceRequest(nil), reqs...)
	for i := range sums {
		sums[i].Carry = ""
	}
	summed, err := p.Influence(t.Context(), sums, credit.NullPad)
	if err != nil {
		t.Fatal(err)
	}
	outside := 0
	for i, r := range reqs {
		for k, o := range r.Offsets[:len(r.Offsets)-1] {
			in := false
			for _, st := range p.Split(r.Prompt, r.Response) {
				in = in || overlaps(o, st[0], st[1])
			}
			switch {
			case in && infl[i].Token[k] != summed[i].Token[k]:
				t.Errorf("response %d byte %d (in a step): mean carry %v, sum %v: one tokenizer, one value", i, k, infl[i].Token[k], summed[i].Token[k])
			case !in && infl[i].Token[k] != 0:
				t.Errorf("response %d byte %d (in no step): influence %v, want 0", i, k, infl[i].Token[k])
			case !in && summed[i].Token[k] != 0:
				outside++
			}
		}
	}
	if outside == 0 {
		t.Error("the sum carry gave no byte outside the steps an influence: the check says nothing")
	}
	m, err := credit.New("p2t-code", credit.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	adv, _, err := m.Advantages(t.Context(), b)
	if err != nil {
		t.Fatal(err)
	}
	for i, in := range infl {
		row, n := adv.Tokens[i], len(b.Tokens[i])
		if row[n-1] != adv.Response[i] {
			t.Errorf("response %d: end token %v, outcome %v", i, row[n-1], adv.Response[i])
		}
		for j, st := range in.Steps {
			start, end := st.Start, n-1 // the end token is in no step
			if j == 0 {
				start = 0
			}
			if j+1 < len(in.Steps) {
				end = in.Steps[j+1].Start
			}
			rs := 2/(1+math.Exp(-st.Logit)) - 1
			var z float64
			for k := start; k < end; k++ {
				z += math.Exp(in.Token[k])
			}
			for k := start; k < end; k++ {
				want := adv.Response[i] + 0.1*float64(end-start)*rs*math.Exp(in.Token[k])/z + 0.1*rs
				if math.Abs(row[k]-want) > 1e-9 {
					t.Errorf("response %d step %d token %d: %v, want %v", i, j, k, row[k], want)
				}
			}
		}
	}
}
