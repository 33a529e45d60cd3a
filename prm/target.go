package prm

import (
	"context"
	"fmt"
	"math"

	"github.com/credo-rl/credo/credit"
)

// stepScalar is a target's S_s from the step's logit l and dS/dl:
//
//	logit:   S = l,              dS/dl = 1
//	prob:    S = σ(l),           dS/dl = σ(l)(1 − σ(l))
//	logprob: S = log σ(l),       dS/dl = 1 − σ(l)
//
// (log σ(l) = −log(1 + e^(−l)), kept finite for very negative l).
func stepScalar(target credit.InfluenceTarget, l float64) (s, ds float64) {
	switch target {
	case credit.TargetProb:
		p := 1 / (1 + math.Exp(-l))
		return p, p * (1 - p)
	case credit.TargetLogProb:
		p := 1 / (1 + math.Exp(-l))
		if l < -30 {
			return l - math.Log1p(math.Exp(l)), 1 - p
		}
		return -math.Log1p(math.Exp(-l)), 1 - p
	}
	return l, 1
}

// checkTarget accepts the three targets and the empty one (logit).
func checkTarget(t credit.InfluenceTarget) error {
	switch t {
	case "", credit.TargetLogit, credit.TargetProb, credit.TargetLogProb:
		return nil
	}
	return fmt.Errorf("influence target %q is not one of %q, %q, %q", t, credit.TargetLogit, credit.TargetProb, credit.TargetLogProb)
}

// checkCarry accepts the two carries and the empty one (sum).
func checkCarry(c credit.InfluenceCarry) error {
	switch c {
	case "", credit.CarrySum, credit.CarryMean:
		return nil
	}
	return fmt.Errorf("influence carry %q is not %q or %q", c, credit.CarrySum, credit.CarryMean)
}

// targetSelection is the selection whose weighted score sum has the
// gradient of Σ_s S_s for each request's target: at the token where step
// s is read, dS/dl at its logit (1 for the logit target, so b.sel as it
// is). The chain rule, ∂(Σ_s S(l_s))/∂e = Σ_s S′(l_s)·∂l_s/∂e, with the
// S′(l_s) held constant: one forward pass (Scores) more, only when some
// request asks a target other than the logit.
func (p *PRM) targetSelection(ctx context.Context, reqs []credit.InfluenceRequest, b rendered) ([][]float32, error) {
	other := false
	for _, i := range b.which {
		other = other || (reqs[i].Target != "" && reqs[i].Target != credit.TargetLogit)
	}
	if !other {
		return b.sel, nil
	}
	scores, err := p.Model.Scores(ctx, b.seqs)
	if err != nil {
		return nil, fmt.Errorf("influence targets: %w", err)
	}
	sel := make([][]float32, len(b.sel))
	for k, i := range b.which {
		sel[k] = make([]float32, len(b.sel[k]))
		for _, t := range b.encs[i].ends {
			_, ds := stepScalar(reqs[i].Target, float64(scores[k][t]))
			sel[k][t] += float32(ds)
		}
	}
	return sel, nil
}

// CarryMean moves per-token values from one tokenization of a text to
// another as P2T's released code does (p2t/scripts/p2t_align.py,
// align_prm_influence_to_policy with agg "mean"). Each `from` token is
// clipped to the first step (byte ranges steps, in order and disjoint) it
// shares a byte with, and dropped if none; each `to` token takes the step
// it shares the most bytes with (the earlier on a tie) and gets
//
//	Σ_j v_j·|to ∩ from_j| / Σ_j |to ∩ from_j|   over the clipped from_j of that step
//
// the byte-weighted mean of the values it overlaps there: a `to` token
// inside one `from` token gets that token's whole value (Carry would give
// it a share). A `to` token sharing no byte with any step (a separator, an
// empty range) gets 0. Where the two tokenizations are the same, values
// inside steps are unchanged and those outside are 0.
func CarryMean(from [][2]int, values []float64, steps [][2]int, to [][2]int) []float64 {
	type piece struct {
		a, b, step int
		v          float64
	}
	var pieces []piece // in order and disjoint, as from is
	for j, k := 0, 0; j < len(from); j++ {
		f := from[j]
		for k < len(steps) && steps[k][1] <= f[0] {
			k++
		}
		if k < len(steps) && overlaps(steps[k], f[0], f[1]) {
			pieces = append(pieces, piece{max(f[0], steps[k][0]), min(f[1], steps[k][1]), k, values[j]})
		}
	}
	out := make([]float64, len(to))
	s0, p0 := 0, 0
	for i, o := range to {
		for s0 < len(steps) && steps[s0][1] <= o[0] {
			s0++
		}
		best, most := -1, 0
		for k := s0; k < len(steps) && steps[k][0] < o[1]; k++ {
			if n := shared(o, steps[k][0], steps[k][1]); n > most {
				best, most = k, n
			}
		}
		if best < 0 {
			continue
		}
		for p0 < len(pieces) && pieces[p0].b <= o[0] {
			p0++
		}
		var num, den float64
		for _, pc := range pieces[p0:] {
			if pc.a >= o[1] {
				break
			}
			if n := shared(o, pc.a, pc.b); pc.step == best && n > 0 {
				num += pc.v * float64(n)
				den += float64(n)
			}
		}
		if den > 0 {
			out[i] = num / den
		}
	}
	return out
}

// shared is the number of bytes the range r has in [a, b).
func shared(r [2]int, a, b int) int { return max(0, min(r[1], b)-max(r[0], a)) }
