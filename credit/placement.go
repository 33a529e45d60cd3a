package credit

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/credo-rl/credo/credit/place"
	"github.com/credo-rl/credo/internal/parallel"
)

// source is a relevance source (ALGORITHMS.md §2): it returns q[k][i] on
// every token of response i for each pair whose reward varies in the
// response's group (v.varies), nil rows elsewhere. q ≥ 0 says how much of
// the pair's advantage a token should carry; a negative q (the span
// source's quotes marked against the advantage, ALGORITHMS.md §2 "span")
// says the token should carry it with the opposite sign. a is GDPO's
// A[k][i]. A source may add metrics of its own.
type source interface {
	relevance(ctx context.Context, v *view, a [][]float64, m Metrics) ([][][]float64, error)
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
//	A[i,t] = (S[i] + Δ[i,t] − mean_batch S) / (std_batch S + ε)
//	Δ[i,t] = Σ_k c[k]·A[k,i]·(w[k,i,t] − 1)
//
// with GDPO's A[k,i] and S[i] = Σ_k c[k]·A[k,i], and w the placed weights
// (place.Placer.Weights) of the source's relevance under β_eff = β·min(1,
// Step/N), N the source's warm-up. Δ is the reallocated advantage; the
// cap bounds it (Config.Cap: place.Placer.CapSum on Δ by default, or each reward's w
// at κ). Every w averages to one over the response and capping keeps
// Σ_t Δ[i,t], so mean_t A[i,t] = Â[i], GDPO's advantage: only the
// placement moves. A reward with no variance in the group has A[k,i] = 0
// and gets no relevance. The relevance is computed even when β_eff = 0, so
// the diagnostics exist from the first step.
func (m *placed) Advantages(ctx context.Context, b *Batch) (Advantages, Metrics, error) {
	v, err := newView(b)
	if err != nil {
		return Advantages{}, nil, fmt.Errorf("%s: %w", m.name, err)
	}
	g := gdpoResponse(v, m.c.Eps)
	met := Metrics{}
	var q [][][]float64
	if m.src != nil {
		if q, err = m.src.relevance(ctx, v, g.a, met); err != nil {
			return Advantages{}, nil, fmt.Errorf("%s: %w", m.name, err)
		}
		met["credit/beta"] = m.c.betaAt(b.Step, m.warmup)
	}
	tokens := newTokens(b.Tokens)
	if q != nil {
		capped := m.place(v, g, q, tokens)
		if m.c.Cap != CapReward && len(b.Tokens) > 0 {
			met["credit/capped"] = float64(capped) / float64(len(b.Tokens))
		}
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

// place sums every reward's placed advantage into the token rows, caps
// the reallocation (Config.Cap) and normalizes the rows by GDPO's batch
// statistics. With Shuffle it permutes each row of weights, and the
// relevance row with it, before use. It returns how many responses the
// cap changed.
func (m *placed) place(v *view, g gdpoResult, q [][][]float64, tokens [][]float64) (capped int) {
	pr := placeRun{m: m, v: v, g: g, q: q, beta: m.c.betaAt(v.b.Step, m.warmup), kappa: math.Inf(1)}
	if m.c.Cap == CapReward {
		pr.kappa = m.c.Kappa // CapSum caps the sum below, not each reward
	}
	if m.c.Shuffle {
		// One random stream, drawn in response order: serial.
		rng := rand.New(rand.NewPCG(v.b.Seed, uint64(v.b.Step)))
		var pl place.Placer
		for i, row := range tokens {
			if pr.row(&pl, rng, i, row) {
				capped++
			}
		}
		return capped
	}
	// Rows are independent: each core places its own.
	was := make([]bool, len(tokens))
	parallel.Each(len(tokens), func() *place.Placer { return &place.Placer{} }, func(pl *place.Placer, i int) {
		was[i] = pr.row(pl, nil, i, tokens[i])
	})
	for _, c := range was {
		if c {
			capped++
		}
	}
	return capped
}

// placeRun is one batch's placement, shared read-only by the rows.
type placeRun struct {
	m           *placed
	v           *view
	g           gdpoResult
	q           [][][]float64
	beta, kappa float64
}

// row places response i's token row (place), permuting each weight row
// with rng when it is not nil; it reports whether the cap changed the row.
func (pr *placeRun) row(pl *place.Placer, rng *rand.Rand, i int, row []float64) bool {
	v, g, q := pr.v, pr.g, pr.q
	var bound float64 // max_k |c[k]·A[k,i]|
	for k := range v.k {
		a := g.a[k][i]
		ca := float64(v.c[k] * a)
		bound = max(bound, math.Abs(ca))
		if q[k][i] == nil {
			if a != 0 { // adding 0 would change nothing: S[i] has it too
				for t := range row {
					row[t] += ca
				}
			}
			continue
		}
		w := pl.Weights(q[k][i], pr.beta, pr.kappa)
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
	c := pr.m.c
	capped := c.Cap != CapReward && pl.CapSum(row, g.s[i], (c.Kappa-1)*bound)
	for t := range row {
		row[t] = (row[t] - g.mean) / g.denom
	}
	return capped
}

// shuffleRow applies one random permutation to w and q alike: the same
// values in the wrong places (the shuffle ablation).
func shuffleRow(rng *rand.Rand, w, q []float64) {
	rng.Shuffle(len(w), func(a, b int) {
		w[a], w[b] = w[b], w[a]
		q[a], q[b] = q[b], q[a]
	})
}
