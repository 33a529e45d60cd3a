package credit

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/credo-rl/credo/internal/parallel"
	"github.com/credo-rl/credo/reward"
)

func init() { Register("span", newSpan, Shuffle, WrongSpans) }

func newSpan(c Config) (Method, error) {
	if err := errors.Join(c.validateEps(), c.PlacementOptions.Validate(), c.SpanOptions.Validate()); err != nil {
		return nil, err
	}
	return &placed{name: "span", c: c, src: spanSource{gamma: c.Gamma, wrong: c.WrongSpans}, warmup: c.SpanWarmup}, nil
}

// spanSource is the span relevance source (judge attribution, the
// token-heatmap method): a verdict's spans, mapped onto tokens through
// Batch.Offsets, with discounted credit for the tokens before them.
type spanSource struct {
	gamma float64
	wrong bool // the control: each reward placed on another reward's spans
}

// relevance returns q = h with, for token s, strength[s] the largest
// strength of the verdict's spans over it and e[s] that span's effect
// (reward.TokenEffects), and
//
//	σ[s] = −strength[s] if e[s]·sign(A[k,i]) < 0, else strength[s]
//	h[t] = Σ_{s ≥ t} σ[s]·γ^(s − t)
//
// A span without effect (a verifier's checked part) always carries the
// reward's advantage; a judge's quote carries it when its effect agrees
// with the advantage's sign ("+" in a response above the group's mean,
// "−" below it) and works against it otherwise: q < 0 there, so placement
// (place.Placer.Weights) gives the quoted tokens less of the advantage, and when
// they are a small enough part of the response the opposite sign. Good
// parts get positive credit and bad parts negative, as in the token-heatmap
// method, while the response's tokens still average to its advantage. A
// verdict whose spans cover no token gives uniform relevance, q = 1: the
// verifier said nothing about where, so the reward's credit is placed as
// GDPO places it (a choice of credo's; an absent span could also have
// meant "no token", which would make w undefined). Overlapping spans take
// the larger strength, not the sum (reward.TokenEffects).
func (s spanSource) relevance(ctx context.Context, v *view, a [][]float64, _ Metrics) ([][][]float64, error) {
	if v.b.Offsets == nil {
		return nil, fmt.Errorf("the span source needs Batch.Offsets (the byte range of each token)")
	}
	ranges := v.tokenRanges()
	q := make([][][]float64, v.k)
	for k := range v.k {
		q[k] = make([][]float64, v.n)
	}
	// Responses are independent: each core maps its own. A failure is
	// reported as the loop over rewards, then responses, would meet it
	// first.
	failK, fails := make([]int, v.n), make([]error, v.n)
	parallel.Each(v.n, func() *[]reward.Effect { return new([]reward.Effect) }, func(effect *[]reward.Effect, i int) {
		for k := range v.k {
			if !v.varies[k][i] {
				continue
			}
			h, err := s.pair(v, a[k][i], ranges[i], k, i, effect)
			if err != nil {
				failK[i], fails[i] = k, err
				return
			}
			q[k][i] = h
		}
	})
	first := -1
	for i, err := range fails {
		if err != nil && (first < 0 || failK[i] < failK[first]) {
			first = i
		}
	}
	if first >= 0 {
		return nil, fails[first]
	}
	return q, ctx.Err()
}

// pair is the relevance h of reward k on response i, whose GDPO advantage
// is a; effect is scratch.
func (s spanSource) pair(v *view, a float64, r reward.TokenRanges, k, i int, effect *[]reward.Effect) ([]float64, error) {
	var spans []reward.Span
	if vd := v.verdict(k, i); vd != nil {
		spans = vd.Spans
	}
	if s.wrong {
		spans = v.otherSpans(k, i)
	}
	n := len(r.Offsets())
	strength := make([]float64, n)
	*effect = slices.Grow((*effect)[:0], n)[:n]
	r.Fill(strength, *effect, spans)
	sign := reward.Effect(0)
	switch {
	case a > 0:
		sign = reward.Raised
	case a < 0:
		sign = reward.Lowered
	}
	for t, e := range *effect {
		if e*sign < 0 {
			strength[t] = -strength[t]
		}
	}
	h := discount(strength, s.gamma)
	var sum float64
	for _, x := range h {
		sum += math.Abs(x)
	}
	if !finite(sum) {
		return nil, fmt.Errorf("reward %q, response %d: span strengths give relevance %v", v.names[k], i, sum)
	}
	if sum == 0 {
		for t := range h {
			h[t] = 1
		}
	}
	return h, nil
}

// discount turns token strengths into h[t] = Σ_{s ≥ t} strength[s]·γ^(s − t)
// in place, by the backward recursion h[t] = strength[t] + γ·h[t+1]. It
// starts at the last nonzero strength: the zeros after it (+0, as
// TokenEffects leaves them) would stay +0.
func discount(strength []float64, gamma float64) []float64 {
	last := len(strength) - 1
	for last > 0 && math.Float64bits(strength[last]) == 0 {
		last--
	}
	// The running h stays in a register (a store and a load per token
	// less on the recursion's critical path); the same sum, the same bits.
	h := 0.0
	if last >= 0 {
		h = strength[last]
	}
	for t := last - 1; t >= 0; t-- {
		h = strength[t] + gamma*h
		strength[t] = h
	}
	return strength
}

// otherSpans is the span+wrong control's spans for reward k on response i:
// those of the next reward after k in reward order (cyclically) that
// applies to the response, with their strengths and no effect (an effect
// is relative to its own reward's score). Nil when no other reward applies:
// relevance is then uniform.
func (v *view) otherSpans(k, i int) []reward.Span {
	for d := 1; d < v.k; d++ {
		j := (k + d) % v.k
		vd := v.verdict(j, i)
		if vd == nil || v.skip[j][i] {
			continue
		}
		out := make([]reward.Span, len(vd.Spans))
		for n, sp := range vd.Spans {
			out[n] = reward.Span{Start: sp.Start, End: sp.End, Strength: sp.Strength}
		}
		return out
	}
	return nil
}
