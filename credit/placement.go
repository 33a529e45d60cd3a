package credit

import (
	"context"
	"fmt"
	"math/rand/v2"
)

// source is a relevance source (ALGORITHMS.md §2): it returns q[k][i] ≥ 0
// on every token of response i for each pair whose reward varies in the
// response's group (v.varies), nil rows elsewhere. A source may add
// metrics of its own.
type source interface {
	relevance(ctx context.Context, v *view, m Metrics) ([][][]float64, error)
}

// placed is a GDPO-based method: GDPO's response level, then a relevance
// source and placement. A nil source is uniform relevance (q = 1), which is
// GDPO itself.
type placed struct {
	name   string
	c      Config
	src    source
	warmup int // N of the source's β warm-up (Config.SpanWarmup, ReplayWarmup)
}

// Advantages returns, for response i and token t,
//
//	A[i,t] = (Σ_k c[k]·A[k,i]·w[k,i,t] − mean_batch S) / (std_batch S + ε)
//
// with GDPO's A[k,i] and S, and w the placed weights of the source's
// relevance under β_eff = β·min(1, Step/N), N the source's warm-up. Since every w averages to one
// over the response, mean_t A[i,t] = Â[i], GDPO's advantage; only the
// placement moves. A reward with no variance in the group has A[k,i] = 0 and
// gets no relevance. The relevance is computed even when β_eff = 0, so the
// diagnostics exist from the first step.
func (m *placed) Advantages(ctx context.Context, b *Batch) (Advantages, Metrics, error) {
	v, err := newView(b)
	if err != nil {
		return Advantages{}, nil, fmt.Errorf("%s: %w", m.name, err)
	}
	g := gdpoResponse(v, m.c.Eps)
	met := Metrics{}
	var q [][][]float64
	if m.src != nil {
		if q, err = m.src.relevance(ctx, v, met); err != nil {
			return Advantages{}, nil, fmt.Errorf("%s: %w", m.name, err)
		}
		met["credit/beta"] = m.c.betaAt(b.Step, m.warmup)
	}
	tokens := newTokens(b.Tokens)
	if q != nil {
		m.place(v, g, q, tokens)
	} else {
		for i, row := range tokens {
			for t := range row {
				row[t] = g.hat[i]
			}
		}
	}
	adv := Advantages{Tokens: tokens, Response: g.hat, Relevance: q}
	if q != nil {
		diagnose(v, func(k, i int) []float64 { return q[k][i] }, met)
	} else {
		diagnose(v, uniformRelevance(v), met)
	}
	return adv, met, nil
}

// place sums every reward's placed advantage into the token rows and
// normalizes them by GDPO's batch statistics. With Shuffle it permutes each
// row of weights, and the relevance row with it, before use.
func (m *placed) place(v *view, g gdpoResult, q [][][]float64, tokens [][]float64) {
	beta := m.c.betaAt(v.b.Step, m.warmup)
	var rng *rand.Rand
	if m.c.Shuffle {
		rng = rand.New(rand.NewPCG(v.b.Seed, uint64(v.b.Step)))
	}
	var pl placer
	for i, row := range tokens {
		for k := range v.k {
			a := g.a[k][i]
			ca := float64(v.c[k] * a)
			if q[k][i] == nil {
				if a != 0 { // adding 0 would change nothing: S[i] has it too
					for t := range row {
						row[t] += ca
					}
				}
				continue
			}
			w := pl.weights(q[k][i], beta, m.c.Kappa)
			if rng != nil {
				shuffleRow(rng, w, q[k][i])
			}
			if a == 0 {
				continue
			}
			for t := range row {
				// float64 rounds the product: with w = 1 this is S[i]'s sum exactly.
				row[t] += float64(ca * w[t])
			}
		}
		for t := range row {
			row[t] = (row[t] - g.mean) / g.denom
		}
	}
}

// shuffleRow applies one random permutation to w and q alike: the same
// values in the wrong places (the shuffle ablation).
func shuffleRow(rng *rand.Rand, w, q []float64) {
	rng.Shuffle(len(w), func(a, b int) {
		w[a], w[b] = w[b], w[a]
		q[a], q[b] = q[b], q[a]
	})
}

// placer computes placed weights into buffers it reuses.
type placer struct {
	w      []float64
	capped []bool
}

// weights returns the placement of relevance q (ALGORITHMS.md §2):
//
//	w[t] = (1 − β) + β·q[t] / mean_u q[u]      (w = 1 when mean q = 0)
//
// then caps every weight at κ by water-filling: weights above κ are fixed
// at κ and the others scaled up so the total stays len(q); repeat until none
// exceeds κ. The result has max ≤ κ and mean one (to rounding); weights
// below the cap stay at least 1 − β, since the scaling only raises them.
// The slice is reused by the next call.
func (p *placer) weights(q []float64, beta, kappa float64) []float64 {
	n := len(q)
	if cap(p.w) < n {
		p.w = make([]float64, n)
		p.capped = make([]bool, n)
	}
	w, capped := p.w[:n], p.capped[:n]
	var sum float64
	for _, x := range q {
		sum += x
	}
	if sum == 0 {
		for t := range w {
			w[t] = 1
		}
		return w
	}
	mean := sum / float64(n)
	for t, x := range q {
		w[t] = (1 - beta) + beta*(x/mean)
	}
	waterfill(w, capped, kappa)
	return w
}

// waterfill caps w at κ ≥ 1 and rescales the uncapped weights so the mean
// stays one. capped is scratch of len(w).
func waterfill(w []float64, capped []bool, kappa float64) {
	clear(capped)
	n, nCapped := len(w), 0
	for {
		more := false
		for t, x := range w {
			if !capped[t] && x > kappa {
				capped[t], w[t], more = true, kappa, true
				nCapped++
			}
		}
		if !more || nCapped == n {
			return
		}
		var free float64
		for t, x := range w {
			if !capped[t] {
				free += x
			}
		}
		rest := float64(n) - kappa*float64(nCapped) // the mass the free weights must hold
		if free > 0 {
			f := rest / free
			for t := range w {
				if !capped[t] {
					w[t] *= f
				}
			}
		} else { // all free weights are 0 (β = 1): share the rest evenly
			each := rest / float64(n-nCapped)
			for t := range w {
				if !capped[t] {
					w[t] = each
				}
			}
		}
	}
}
