package credit

import (
	"context"
	"errors"
	"fmt"
	"math"
)

func newP2T(c Config) (Method, error) {
	if err := errors.Join(c.validateEps(), c.validateScale(), c.validateGradient()); err != nil {
		return nil, err
	}
	return &p2t{c}, nil
}

// p2t is P2T, the gradient method (ALGORITHMS.md §2): a token reward from a
// differentiable process reward model's step scores and token influences,
// added to GRPO's outcome advantage. It adds rather than places, so its
// tokens do not average to the response advantage.
type p2t struct{ c Config }

// Advantages calls Batch.PRM once for the whole batch (with Config.Null) and
// returns
//
//	A[i,t] = A_outcome[i] + α·r_tok[t]
//
// where A_outcome is GRPO (with Config.Scale) on the weighted sum of the
// batch's rewards and r_tok is tokenReward's. Relevance[k][i] is the
// response's q for every reward that applies (P2T's q is one per response).
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
		reqs[i] = InfluenceRequest{Prompt: b.Prompts[i], Response: b.Responses[i], Offsets: b.Offsets[i]}
	}
	infl, err := b.PRM.Influence(ctx, reqs, m.c.Null)
	if err != nil {
		return Advantages{}, nil, fmt.Errorf("p2t: influence of %d responses: %w", len(reqs), err)
	}
	if len(infl) != v.n {
		return Advantages{}, nil, fmt.Errorf("p2t: the PRM returned %d answers for %d responses", len(infl), v.n)
	}
	for i, row := range tokens {
		q, r, err := tokenReward(infl[i], len(row), m.c)
		if err != nil {
			return Advantages{}, nil, fmt.Errorf("p2t: response %d: %w", i, err)
		}
		for t := range row {
			row[t] = outcome[i] + m.c.Alpha*r[t]
		}
		for k := range v.k {
			if !v.skip[k][i] {
				rel[k][i] = append([]float64(nil), q...)
			}
		}
	}
	diagnose(v, func(k, i int) []float64 { return rel[k][i] }, met)
	return Advantages{Tokens: tokens, Response: outcome, Relevance: rel}, met, nil
}

// tokenReward turns one response's influence into mean-one weights q within
// each step s of n_s tokens, then into token rewards:
//
//	magnitude: q[t] = n_s·|I[t]| / Σ_{u in s} |I[u]|   (q = 1 when every I is 0)
//	softmax:   q[t] = n_s·softmax_{u in s}(I[u]/T)[t]
//	r_tok[t]  = R_s·((1 − η) + η·q[t]),  R_s = sigmoid(logit_s)  (signed: 2R_s − 1)
//
// Tokens outside every step get q = 0 and r_tok = 0.
func tokenReward(in Influence, n int, c Config) (q, r []float64, err error) {
	if len(in.Token) != n {
		return nil, nil, fmt.Errorf("influence on %d tokens for %d response tokens", len(in.Token), n)
	}
	q, r = make([]float64, n), make([]float64, n)
	prev := 0
	for j, s := range in.Steps {
		if s.Start < prev || s.End < s.Start || s.End > n {
			return nil, nil, fmt.Errorf("step %d covers tokens [%d, %d): steps must be in order, disjoint and within the %d tokens", j, s.Start, s.End, n)
		}
		prev = s.End
		if !finite(s.Logit) {
			return nil, nil, fmt.Errorf("step %d has logit %v", j, s.Logit)
		}
		infl := in.Token[s.Start:s.End]
		for t, x := range infl {
			if !finite(x) {
				return nil, nil, fmt.Errorf("token %d has influence %v", s.Start+t, x)
			}
		}
		stepWeights(q[s.Start:s.End], infl, c.Norm, c.Temperature)
		rs := 1 / (1 + math.Exp(-s.Logit))
		if c.Signed {
			rs = 2*rs - 1
		}
		for t := s.Start; t < s.End; t++ {
			r[t] = rs * ((1 - c.Eta) + c.Eta*q[t])
		}
	}
	return q, r, nil
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
