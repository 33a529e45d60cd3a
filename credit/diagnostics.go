package credit

import (
	"math"
	"slices"

	"github.com/credo-rl/credo/reward"
)

// diagnose adds the diagnostics of ALGORITHMS.md §5 to m, over the
// (response, reward) pairs whose verdict applies (not Skip), on |q|:
//
//	credit/concentration/<reward>  mean of concentration(q) over the pairs with relevance
//	credit/localization/<reward>   mean of localization(q, checked) where it is defined
//	credit/skipped                 share of the pairs whose reward has no variance in the group
//
// rel(k, i) is the relevance the method used for the pair, nil where it used
// none. A key is absent when no pair defines it. credit/overhead is the
// trainer's: it owns the clock.
func diagnose(v *view, rel func(k, i int) []float64, m Metrics) {
	pairs, skipped := 0, 0
	var scratch, abs, strength []float64
	// Uniform relevance hands out one row for every pair: its
	// concentration is computed once (the same values give the same bits).
	var last []float64
	var lastConc float64
	for k := range v.k {
		var conc, loc float64
		nConc, nLoc := 0, 0
		for i := range v.n {
			if v.skip[k][i] {
				continue
			}
			pairs++
			if !v.varies[k][i] {
				skipped++
			}
			row := rel(k, i)
			if row == nil {
				continue
			}
			var q []float64
			q, abs = magnitude(row, abs)
			c := lastConc
			if len(row) == 0 || len(row) != len(last) || &row[0] != &last[0] {
				c, scratch = concentration(q, scratch)
				last, lastConc = row, c
			}
			if c > 0 {
				conc += c
				nConc++
			}
			if vd := v.verdict(k, i); vd != nil && v.b.Offsets != nil {
				offsets := v.b.Offsets[i]
				strength = slices.Grow(strength[:0], len(offsets))[:len(offsets)]
				reward.FillTokenEffects(strength, nil, vd.Spans, offsets)
				if l, ok := localization(q, strength); ok {
					loc += l
					nLoc++
				}
			}
		}
		if nConc > 0 {
			m["credit/concentration/"+v.names[k]] = conc / float64(nConc)
		}
		if nLoc > 0 {
			m["credit/localization/"+v.names[k]] = loc / float64(nLoc)
		}
	}
	if pairs > 0 {
		m["credit/skipped"] = float64(skipped) / float64(pairs)
	}
}

// magnitude is |q|: how much of the pair's advantage a token moves, with
// or against its sign (the span source's quotes against the advantage have
// q < 0). q itself when it has no negative entry; else a copy in buf.
func magnitude(q, buf []float64) ([]float64, []float64) {
	if !slices.ContainsFunc(q, func(x float64) bool { return x < 0 }) {
		return q, buf
	}
	buf = buf[:0]
	for _, x := range q {
		buf = append(buf, math.Abs(x))
	}
	return buf, buf
}

// uniformRelevance is q = 1 on the pairs with variance, for methods that
// place credit uniformly (GRPO, GDPO).
func uniformRelevance(v *view) func(k, i int) []float64 {
	longest := 0
	for _, row := range v.b.Tokens {
		longest = max(longest, len(row))
	}
	ones := make([]float64, longest)
	for t := range ones {
		ones[t] = 1
	}
	return func(k, i int) []float64 {
		if !v.varies[k][i] {
			return nil
		}
		return ones[:len(v.b.Tokens[i])]
	}
}

// concentration is the smallest share of the tokens that holds 80% of q's
// total: sort q in decreasing order and count until the running sum reaches
// 0.8·Σq. It is 0 (undefined) when q has no mass. scratch is reused.
//
// Only the largest values are summed, and a concentrated q reaches the
// goal after a few, so they are taken off a max-heap one at a time rather
// than sorting all of q; after len(q)/8 of them the rest is sorted instead
// (a flat q needs most). Either way the running sum adds the same values
// in the same decreasing order as a full sort would, so every bit is the
// same (equal values are interchangeable, and q ≥ 0 holds no NaN once
// Σq > 0).
func concentration(q, scratch []float64) (float64, []float64) {
	var total float64
	for _, x := range q {
		total += x
	}
	if !(total > 0) {
		return 0, scratch
	}
	goal := 0.8 * total * (1 - 1e-12) // the tolerance keeps ties at the goal from rounding up
	n := len(q)
	scratch = append(scratch[:0], q...)
	h := scratch
	for j := n/2 - 1; j >= 0; j-- {
		siftDown(h, j)
	}
	var run float64
	end := n // h[:end] is the heap; h[end:] the values taken, largest last
	for ; end > 0 && n-end < max(8, n/8); end-- {
		run += h[0]
		if run >= goal {
			return float64(n-end+1) / float64(n), scratch
		}
		h[0], h[end-1] = h[end-1], h[0]
		siftDown(h[:end-1], 0)
	}
	rest := h[:end] // every value in it is at most the ones taken
	slices.Sort(rest)
	for j := end - 1; j >= 0; j-- {
		run += rest[j]
		if run >= goal {
			return float64(n-j) / float64(n), scratch
		}
	}
	return 1, scratch
}

// siftDown restores the max-heap property of h below index j.
func siftDown(h []float64, j int) {
	for {
		c := 2*j + 1
		if c >= len(h) {
			return
		}
		if c+1 < len(h) && h[c+1] > h[c] {
			c++
		}
		if !(h[c] > h[j]) {
			return
		}
		h[j], h[c] = h[c], h[j]
		j = c
	}
}

// localization is (share of q on the checked tokens) / (their share of the
// tokens): 1 means q ignores what the verifier looked at. It is defined when
// the checked tokens (strength > 0) are some but not all, and q has mass.
func localization(q, strength []float64) (float64, bool) {
	var onChecked, total float64
	checked := 0
	for t, x := range q {
		total += x
		if strength[t] > 0 {
			onChecked += x
			checked++
		}
	}
	if checked == 0 || checked == len(q) || !(total > 0) {
		return 0, false
	}
	return (onChecked / total) / (float64(checked) / float64(len(q))), true
}
