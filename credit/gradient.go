package credit

import (
	"context"
	"errors"
	"fmt"
	"math"
)

func init() {
	Register("p2t", newP2T)
	Register("p2t-step", newP2TStep)
}

func newP2T(c Config) (Method, error) {
	if err := errors.Join(c.validateEps(), c.validateScale(), c.GradientOptions.Validate()); err != nil {
		return nil, err
	}
	return &p2t{c: c}, nil
}

// newP2TStep is P2T with η = 0 (Config.Eta ignored): every token of a step
// gets the step's reward, no influence. The P2T paper's step-level
// baseline, registered so that `compare --methods p2t,p2t-step` sets the
// two side by side.
func newP2TStep(c Config) (Method, error) {
	c.Eta = 0
	return newP2T(c)
}

// p2t is P2T, the gradient method (ALGORITHMS.md §2): a token reward from a
// differentiable process reward model's step scores and token influences,
// added to GRPO's outcome advantage. It adds rather than places, so its
// tokens do not average to the response advantage. With noEnd, tokens of
// no bytes (the end token) belong to no step, as in P2T's released code
// (p2t-code).
type p2t struct {
	c     Config
	noEnd bool
}

// Advantages calls Batch.PRM once for the whole batch (with Config.Null,
// and Config.Target and Config.Carry in every request) and returns
//
//	A[i,t] = A_outcome[i] + α·r_tok[t]
//
// where A_outcome is GRPO (with Config.Scale) on the weighted sum of the
// batch's rewards and r_tok is tokenReward's, with each step's reward R̃_s
// from stepRewards. Relevance[k][i] is the response's q for every reward
// that applies (P2T's q is one per response). The metrics
// credit/p2t/step_reward (mean R̃ over the batch's steps) and
// credit/p2t/token_reward (mean |α·r_tok| over its tokens, beside
// credit/p2t/outcome, mean |A_outcome|) say how much the PRM moves.
func (m *p2t) Advantages(ctx context.Context, b *Batch) (Advantages, Metrics, error) {
	v, err := newView(b)
	if err != nil {
		return Advantages{}, nil, fmt.Errorf("p2t: %w", err)
	}
	if b.PRM == nil {
		return Advantages{}, nil, fmt.Errorf("p2t needs Batch.PRM (a process reward model)")
	}
	if len(b.Prompts) != v.n || len(b.Responses) != v.n || len(b.Offsets) != v.n {
		return Advantages{}, nil, fmt.Errorf("p2t needs Batch.Prompts, Responses and Offsets for each of the %d responses (got %d, %d, %d)",
			v.n, len(b.Prompts), len(b.Responses), len(b.Offsets))
	}
	outcome := grpoResponse(v, m.c.Scale, m.c.Eps)
	tokens := newTokens(b.Tokens)
	met := Metrics{}
	rel := make([][][]float64, v.k)
	for k := range rel {
		rel[k] = make([][]float64, v.n)
	}
	if v.n == 0 {
		return Advantages{Tokens: tokens, Response: outcome, Relevance: rel}, met, nil
	}
	reqs := make([]InfluenceRequest, v.n)
	for i := range reqs {
		reqs[i] = InfluenceRequest{Prompt: b.Prompts[i], Response: b.Responses[i], Offsets: b.Offsets[i],
			Target: m.c.Target, Carry: m.c.Carry}
	}
	infl, err := b.PRM.Influence(ctx, reqs, m.c.Null)
	if err != nil {
		return Advantages{}, nil, fmt.Errorf("p2t: influence of %d responses: %w", len(reqs), err)
	}
	if len(infl) != v.n {
		return Advantages{}, nil, fmt.Errorf("p2t: the PRM returned %d answers for %d responses", len(infl), v.n)
	}
	for i, in := range infl {
		if err := checkInfluence(in, len(b.Tokens[i])); err != nil {
			return Advantages{}, nil, fmt.Errorf("p2t: response %d: %w", i, err)
		}
	}
	rs := stepRewards(v, infl, m.c.StepReward)
	var sumR, sumTok, sumOut float64
	nR, nTok := 0, 0
	for i, row := range tokens {
		var offs [][2]int
		if m.noEnd {
			offs = b.Offsets[i]
		}
		q, r := tokenReward(infl[i], rs[i], len(row), offs, m.c)
		for t := range row {
			row[t] = outcome[i] + m.c.Alpha*r[t]
			sumTok += math.Abs(m.c.Alpha * r[t])
			sumOut += math.Abs(outcome[i])
		}
		nTok += len(row)
		for _, x := range rs[i] {
			sumR += x
		}
		nR += len(rs[i])
		for k := range v.k {
			if !v.skip[k][i] {
				rel[k][i] = append([]float64(nil), q...)
			}
		}
	}
	if nR > 0 {
		met["credit/p2t/step_reward"] = sumR / float64(nR)
	}
	if nTok > 0 {
		met["credit/p2t/token_reward"] = sumTok / float64(nTok)
		met["credit/p2t/outcome"] = sumOut / float64(nTok)
	}
	diagnose(v, func(k, i int) []float64 { return rel[k][i] }, met)
	return Advantages{Tokens: tokens, Response: outcome, Relevance: rel}, met, nil
}

// checkInfluence validates one response's influence: a value per token,
// finite, and steps in order, disjoint, within the tokens, finite logits.
func checkInfluence(in Influence, n int) error {
	if len(in.Token) != n {
		return fmt.Errorf("influence on %d tokens for %d response tokens", len(in.Token), n)
	}
	for t, x := range in.Token {
		if !finite(x) {
			return fmt.Errorf("token %d has influence %v", t, x)
		}
	}
	prev := 0
	for j, s := range in.Steps {
		if s.Start < prev || s.End < s.Start || s.End > n {
			return fmt.Errorf("step %d covers tokens [%d, %d): steps must be in order, disjoint and within the %d tokens", j, s.Start, s.End, n)
		}
		prev = s.End
		if !finite(s.Logit) {
			return fmt.Errorf("step %d has logit %v", j, s.Logit)
		}
	}
	return nil
}

// stepRewards is each response's step rewards R̃_s, from the step
// probabilities R_s = sigmoid(logit_s):
//
//	signed:   R̃_s = 2R_s − 1
//	centred:  R̃_s = R_s − mean R over every step of every response in the group
//	unsigned: R̃_s = R_s
func stepRewards(v *view, infl []Influence, mode StepReward) [][]float64 {
	out := make([][]float64, len(infl))
	for i, in := range infl {
		out[i] = make([]float64, len(in.Steps))
		for j, s := range in.Steps {
			out[i][j] = 1 / (1 + math.Exp(-s.Logit))
		}
	}
	switch mode {
	case StepSigned:
		for _, row := range out {
			for j, r := range row {
				row[j] = 2*r - 1
			}
		}
	case StepCentred:
		for _, g := range v.groups {
			var sum float64
			n := 0
			for _, i := range g {
				for _, r := range out[i] {
					sum += r
				}
				n += len(out[i])
			}
			if n == 0 {
				continue
			}
			mean := sum / float64(n)
			for _, i := range g {
				for j := range out[i] {
					out[i][j] -= mean
				}
			}
		}
	}
	return out
}

// tokenReward turns one response's influence into mean-one weights q within
// each step s, then into token rewards with the step rewards rs:
//
//	magnitude: q[t] = n_s·|I[t]| / Σ_{u in s} |I[u]|   (q = 1 when every I is 0)
//	softmax:   q[t] = n_s·softmax_{u in s}(I[u]/T)[t]
//	r_tok[t]  = R̃_s·((1 − η) + η·q[t])
//
// Every token belongs to a step: step s holds the tokens from its start to
// the next step's start, the first step also those before it and the last
// all those after it, so separators, the answer line and the end token take
// the reward of the step before them (the influence there is what it is:
// usually 0 after the last step, as the PRM reads nothing later). n_s counts
// them all. With offs given, a token whose byte range is empty (the end
// token) belongs to no step instead: q = r_tok = 0 there, and n_s leaves it
// out. A response with no step has no step reward: q = r_tok = 0. in must
// have passed checkInfluence.
func tokenReward(in Influence, rs []float64, n int, offs [][2]int, c Config) (q, r []float64) {
	q, r = make([]float64, n), make([]float64, n)
	for j := range in.Steps {
		start, end := in.Steps[j].Start, n
		if j == 0 {
			start = 0
		}
		if j+1 < len(in.Steps) {
			end = in.Steps[j+1].Start
		}
		var own []int // the step's tokens
		for t := start; t < end; t++ {
			if offs == nil || offs[t][0] < offs[t][1] {
				own = append(own, t)
			}
		}
		if len(own) == 0 {
			continue
		}
		w, infl := make([]float64, len(own)), make([]float64, len(own))
		for k, t := range own {
			infl[k] = in.Token[t]
		}
		stepWeights(w, infl, c.Norm, c.Temperature)
		for k, t := range own {
			q[t], r[t] = w[k], rs[j]*((1-c.Eta)+c.Eta*w[k])
		}
	}
	return q, r
}

// stepWeights writes one step's mean-one weights into q.
func stepWeights(q, infl []float64, norm NormMode, temp float64) {
	ns := float64(len(q))
	if norm == NormSoftmax {
		hi := math.Inf(-1)
		for _, x := range infl {
			hi = max(hi, x)
		}
		var z float64 // ≥ 1: the largest term is exp(0)
		for t, x := range infl {
			q[t] = math.Exp((x - hi) / temp) // shifted by the max: no overflow
			z += q[t]
		}
		for t := range q {
			q[t] *= ns / z
		}
		return
	}
	var z float64
	for _, x := range infl {
		z += math.Abs(x)
	}
	for t, x := range infl {
		if z == 0 {
			q[t] = 1
		} else {
			q[t] = ns * math.Abs(x) / z
		}
	}
}
