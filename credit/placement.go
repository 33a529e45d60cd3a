package credit

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
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
// (placer.weights) of the source's relevance under β_eff = β·min(1,
// Step/N), N the source's warm-up. Δ is the reallocated advantage; the
// cap bounds it (Config.Cap: capSum on Δ by default, or each reward's w
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
		var pl placer
		for i, row := range tokens {
			if pr.row(&pl, rng, i, row) {
				capped++
			}
		}
		return capped
	}
	// Rows are independent: each core places its own.
	was := make([]bool, len(tokens))
	parallelEach(len(tokens), func() *placer { return &placer{} }, func(pl *placer, i int) {
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
func (pr *placeRun) row(pl *placer, rng *rand.Rand, i int, row []float64) bool {
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
		w := pl.weights(q[k][i], pr.beta, pr.kappa)
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
	capped := c.Cap != CapReward && pl.capSum(row, g.s[i], (c.Kappa-1)*bound)
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

// placer computes placed weights into buffers it reuses.
type placer struct {
	w      []float64
	capped []bool
	sorted []float64
	prefix []float64
}

// weights returns the placement of relevance q (ALGORITHMS.md §2):
//
//	w[t] = 1 + β·(q[t] − mean_u q[u]) / mean_u |q[u]|      (w = 1 when every q is 0)
//
// which for q ≥ 0 is w[t] = (1 − β) + β·q[t]/mean q, computed in that form.
// Then, for a finite κ (Config.Cap "reward"), it caps each weight: a row
// with q ≥ 0 by water-filling (weights above κ are fixed at κ and the
// others scaled up so the total stays len(q); repeat until none exceeds κ;
// weights below the cap stay at least 1 − β, since the scaling only raises
// them), a row with negative q, whose weights may be negative, by
// projecting w − 1 onto [1 − κ, κ − 1] (clipShift). The result has mean one
// (to rounding). The slice is reused by the next call.
func (p *placer) weights(q []float64, beta, kappa float64) []float64 {
	n := len(q)
	if cap(p.w) < n {
		p.w = make([]float64, n)
		p.capped = make([]bool, n)
	}
	w, capped := p.w[:n], p.capped[:n]
	var sum, abs float64
	signed := false
	for _, x := range q {
		sum += x
		abs += math.Abs(x)
		signed = signed || x < 0
	}
	if abs == 0 {
		for t := range w {
			w[t] = 1
		}
		return w
	}
	if !signed {
		mean := sum / float64(n)
		for t, x := range q {
			w[t] = (1 - beta) + beta*(x/mean)
		}
		if !math.IsInf(kappa, 1) {
			waterfill(w, capped, kappa)
		}
		return w
	}
	mean, meanAbs := sum/float64(n), abs/float64(n)
	for t, x := range q {
		w[t] = 1 + beta*((x-mean)/meanAbs)
	}
	if !math.IsInf(kappa, 1) {
		for t := range w {
			w[t]--
		}
		p.clipShift(w, kappa-1)
		for t := range w {
			w[t]++
		}
	}
	return w
}

// capSum is the default cap (Config.Cap "sum", the MRTPO paper's: it
// "limits how much reallocated advantage a token can receive when several
// rewards concentrate there"). row[t] holds s + Δ[t], the response's
// summed advantage plus the reallocation summed over rewards; capSum
// bounds
//
//	|Δ[t]| ≤ L = (κ − 1)·max_k |c[k]·A[k,i]|
//
// so that however many rewards concentrate on a token, it receives at
// most what one reward's weight of κ could give it. Δ is replaced by its
// projection clipShift(Δ, L), which keeps Σ_t Δ[t], hence the response's
// mean. A row within the bound is left exactly as it is. It reports
// whether it changed the row.
func (p *placer) capSum(row []float64, s, bound float64) bool {
	over := false
	for _, x := range row {
		over = over || math.Abs(x-s) > bound
	}
	if !over {
		return false
	}
	for t := range row {
		row[t] -= s
	}
	p.clipShift(row, bound)
	for t := range row {
		row[t] += s
	}
	return true
}

// clipShift replaces d by its Euclidean projection onto the rows with the
// same sum and every entry in [−L, L] (L ≥ 0), credo's choice of where the
// capped excess goes (the paper does not say) for the default cap:
//
//	d'[t] = min(L, max(−L, d[t] + λ)),  λ the shift with Σ_t d'[t] = Σ_t d[t]
//
// which is water-filling by a uniform shift: the entries past a bound are
// fixed there and the others all move by the same λ. It needs |Σ d| ≤
// len(d)·L, true whenever Σ d = 0 as for placed weights. λ is found on
// the sorted values (bisection, then solved exactly for the entries it
// leaves free), so the result depends on the multiset of d only, and a
// permutation of d permutes d' bit for bit.
func (p *placer) clipShift(d []float64, L float64) {
	n := len(d)
	if n == 0 {
		return
	}
	p.sorted = append(p.sorted[:0], d...)
	x := p.sorted
	slices.Sort(x)
	// prefix[j] = x[0] + … + x[j−1], added in that order: the last is
	// the target, and the rest let clipSum.below skip most of the sums.
	p.prefix = append(p.prefix[:0], 0)
	var target, abs float64
	for _, v := range x {
		target += v
		abs += math.Abs(v)
		p.prefix = append(p.prefix, target)
	}
	if L <= 0 {
		for t := range d {
			d[t] = target / float64(n) // only a constant row fits: keep the sum
		}
		return
	}
	f := clipSum{x: x, prefix: p.prefix, L: L, target: target, abs: abs, exact: !finite(abs) || !finite(L)}
	lambda, a, b := f.bisect()
	if b > a {
		free := target - float64(n-b)*L + float64(a)*L
		for _, v := range x[a:b] {
			free -= v
		}
		lambda = free / float64(b-a)
	}
	for t, v := range d {
		d[t] = min(L, max(-L, v+lambda))
	}
}

// clipSum decides, for clipShift's bisection, whether
//
//	f(λ) = clip(x[0] + λ) + clip(x[1] + λ) + … + clip(x[n−1] + λ),  clip(y) = min(L, max(−L, y))
//
// summed in floating point in that order, is below target. The bisection
// takes its steps from these answers, so they must be those of that sum
// bit for bit; but only near the root does the rounding decide them. On
// sorted x the clipped entries are a prefix (at −L) and a suffix (at L),
// found by binary search, and the free ones sum to prefix[b] − prefix[a]
// + (b − a)·λ, so
//
//	F = (n − a − b)·L + (prefix[b] − prefix[a]) + (b − a)·λ
//
// is f up to rounding, and |f − F| ≤ E = 2(2n + 9)·u·(nL + Σ|x| + n|λ|),
// u = 2⁻⁵³ (the sequential sum's error γ_n·nL, the prefix sums' 2γ_n·Σ|x|,
// and the few operations of F itself, with a margin of 2). Outside ±E of
// the target the sign of F − target is that of f − target; inside, f is
// summed as clipShift always summed it.
type clipSum struct {
	x, prefix []float64 // x sorted, prefix[j] = x[0] + … + x[j−1]
	L, target float64
	abs       float64 // Σ|x|
	exact     bool    // an infinite or NaN entry (or L): always sum, as first written
}

// bisect finds λ by bisection on f (continuous and nondecreasing, from −nL
// at lo to nL at hi) and returns it with the entries at each bound there:
// x[:a] clip to −L, x[b:] to L.
//
// The answer depends on λ only through a and b (clipShift solves the free
// entries' shift from them, and when none is free every entry is at a
// bound), and a and b are monotone in λ: once they are the same at lo and
// at hi they are the same wherever the bisection would have ended, and it
// stops there, returning lo. Else it runs until lo and hi are adjacent
// floats (or 200 steps) and returns their midpoint, as it always did.
func (c *clipSum) bisect() (lambda float64, a, b int) {
	x, L, n := c.x, c.L, len(c.x)
	lo, hi := -L-x[n-1], L-x[0]
	aLo, bLo := c.bounds(lo)
	aHi, bHi := c.bounds(hi)
	for range 200 {
		if aLo == aHi && bLo == bHi && !c.exact {
			return lo, aLo, bLo
		}
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if a, b, below := c.below(mid); below {
			lo, aLo, bLo = mid, a, b
		} else {
			hi, aHi, bHi = mid, a, b
		}
	}
	lambda = lo + (hi-lo)/2
	a = 0
	for a < n && x[a]+lambda <= -L {
		a++
	}
	b = n
	for b > a && x[b-1]+lambda >= L {
		b--
	}
	return lambda, a, b
}

// bounds are the entries at each bound at λ: x[:a] clip to −L (x + λ ≤
// −L), x[b:] to L (x + λ ≥ L), found by binary search on the sorted x.
func (c *clipSum) bounds(lambda float64) (a, b int) {
	L := c.L
	a = sort.Search(len(c.x), func(i int) bool { return c.x[i]+lambda > -L })
	b = a + sort.Search(len(c.x)-a, func(i int) bool { return c.x[a+i]+lambda >= L })
	return a, b
}

// below reports whether f(λ) < target, as the sequential sum says, with
// bounds(λ).
func (c *clipSum) below(lambda float64) (a, b int, below bool) {
	x, L, n := c.x, c.L, len(c.x)
	a, b = c.bounds(lambda)
	if c.exact {
		var s float64
		for _, v := range x {
			s += min(L, max(-L, v+lambda))
		}
		return a, b, s < c.target
	}
	nf := float64(n)
	F := float64(n-a-b)*L + (c.prefix[b] - c.prefix[a]) + float64(b-a)*lambda
	E := 2 * (2*nf + 9) * 0x1p-53 * (nf*L + c.abs + nf*math.Abs(lambda))
	switch d := F - c.target; {
	case d > E:
		return a, b, false
	case d < -E:
		return a, b, true
	}
	// The sum itself, its terms as min(L, max(−L, x + λ)) gives them: −L
	// below a, x + λ between, L from b on.
	var s float64
	for range a {
		s += -L
	}
	for _, v := range x[a:b] {
		s += v + lambda
	}
	for range n - b {
		s += L
	}
	return a, b, s < c.target
}

// waterfill caps w at κ ≥ 1 and rescales the uncapped weights so the mean
// stays one. capped is scratch of len(w). The MRTPO paper caps without
// saying where the excess goes; water-filling (credo's choice) gives it to
// the other tokens in proportion to their weight, so nothing is lost and
// the response's tokens still average to its advantage.
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
