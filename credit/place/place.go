package place

import (
	"math"
	"slices"
)

// Placer computes placed weights into buffers it reuses.
type Placer struct {
	w      []float64
	capped []bool
	sorted []float64
	prefix []float64
}

// Weights returns the placement of relevance q (ALGORITHMS.md §2):
//
//	w[t] = 1 + β·(q[t] − mean_u q[u]) / mean_u |q[u]|      (w = 1 when every q is 0)
//
// which for q ≥ 0 is w[t] = (1 − β) + β·q[t]/mean q, computed in that form.
// Then, for a finite κ (credit.Config.Cap "reward"), it caps each weight: a row
// with q ≥ 0 by water-filling (weights above κ are fixed at κ and the
// others scaled up so the total stays len(q); repeat until none exceeds κ;
// weights below the cap stay at least 1 − β, since the scaling only raises
// them), a row with negative q, whose weights may be negative, by
// projecting w − 1 onto [1 − κ, κ − 1] (ClipShift). The result has mean one
// (to rounding). The slice is reused by the next call.
func (p *Placer) Weights(q []float64, beta, kappa float64) []float64 {
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
		p.ClipShift(w, kappa-1)
		for t := range w {
			w[t]++
		}
	}
	return w
}

// CapSum is the default cap (credit.Config.Cap "sum", the MRTPO paper's: it
// "limits how much reallocated advantage a token can receive when several
// rewards concentrate there"). row[t] holds s + Δ[t], the response's
// summed advantage plus the reallocation summed over rewards; capSum
// bounds
//
//	|Δ[t]| ≤ L = (κ − 1)·max_k |c[k]·A[k,i]|
//
// so that however many rewards concentrate on a token, it receives at
// most what one reward's weight of κ could give it. Δ is replaced by its
// projection ClipShift(Δ, L), which keeps Σ_t Δ[t], hence the response's
// mean. A row within the bound is left exactly as it is. It reports
// whether it changed the row.
func (p *Placer) CapSum(row []float64, s, bound float64) bool {
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
	p.ClipShift(row, bound)
	for t := range row {
		row[t] += s
	}
	return true
}

// ClipShift replaces d by its Euclidean projection onto the rows with the
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
func (p *Placer) ClipShift(d []float64, L float64) {
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
