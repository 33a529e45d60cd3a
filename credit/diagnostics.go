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
	// Each pair's values are computed on every core, then summed here in
	// pair order, as one loop would: the means do not depend on scheduling.
	pd := make([]pairDiagnostics, v.k*v.n) // [k·n + i]
	var ranges []reward.TokenRanges
	if v.b.Offsets != nil && v.b.Verdicts != nil {
		ranges = v.tokenRanges()
	}
	parallelEach(v.n, func() *diagScratch { return &diagScratch{} }, func(s *diagScratch, i int) {
		for k := range v.k {
			if row := rel(k, i); row != nil && !v.skip[k][i] {
				pd[k*v.n+i] = s.pair(row, v.verdict(k, i), ranges, i)
			}
		}
	})
	pairs, skipped := 0, 0
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
			if d := pd[k*v.n+i]; d.conc > 0 {
				conc += d.conc
				nConc++
			}
			if d := pd[k*v.n+i]; d.hasLoc {
				loc += d.loc
				nLoc++
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

// pairDiagnostics is one (reward, response) pair's share of diagnose.
type pairDiagnostics struct {
	conc, loc float64 // concentration (0: undefined) and localization
	hasLoc    bool    // localization is defined
}

// diagScratch is one diagnose worker's buffers.
type diagScratch struct {
	scratch, abs, strength []float64
	// Uniform relevance hands out one row for every pair: its
	// concentration is computed once (the same values give the same bits).
	last                []float64
	lastConc, lastTotal float64
}

// pair is concentration(|q|) and, with a verdict and offsets (ranges),
// localization(|q|, the verdict's checked tokens) for relevance row.
func (s *diagScratch) pair(row []float64, vd *reward.Verdict, ranges []reward.TokenRanges, i int) pairDiagnostics {
	var d pairDiagnostics
	var q []float64
	q, s.abs = magnitude(row, s.abs)
	d.conc = s.lastConc
	same := len(row) > 0 && len(row) == len(s.last) && &row[0] == &s.last[0]
	total := s.lastTotal
	if !same {
		total = sum(q)
		d.conc, s.scratch = concentrationOf(q, total, s.scratch)
		s.last, s.lastConc, s.lastTotal = row, d.conc, total
	}
	if vd != nil && ranges != nil {
		n := len(ranges[i].Offsets())
		s.strength = slices.Grow(s.strength[:0], n)[:n]
		ranges[i].Fill(s.strength, nil, vd.Spans)
		d.loc, d.hasLoc = localizationOf(q, total, s.strength)
	}
	return d
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
// Only the largest values are summed, and a concentrated q reaches the goal
// among the few above its mean: those are sorted and summed first, and the
// rest only if the goal is not reached. Every value above the split
// exceeds every value below it, so the running sum adds the same values in
// the same decreasing order as one full sort would, and every bit is the
// same (equal values are interchangeable, and q holds no NaN once Σq > 0).
func concentration(q, scratch []float64) (float64, []float64) {
	return concentrationOf(q, sum(q), scratch)
}

// sum is Σq added in order: the total both diagnostics divide by, taken
// once for both.
func sum(q []float64) float64 {
	var total float64
	for _, x := range q {
		total += x
	}
	return total
}

// concentrationOf is concentration given total = sum(q).
func concentrationOf(q []float64, total float64, scratch []float64) (float64, []float64) {
	if !(total > 0) {
		return 0, scratch
	}
	goal := 0.8 * total * (1 - 1e-12) // the tolerance keeps ties at the goal from rounding up
	n := len(q)
	scratch = slices.Grow(scratch[:0], n)[:n]
	split := total / float64(n)
	top, rest := 0, n // scratch[:top] holds the values ≥ split, scratch[rest:] the others
	for _, x := range q {
		if x >= split {
			scratch[top] = x
			top++
		} else {
			rest--
			scratch[rest] = x
		}
	}
	var run float64
	taken := 0
	for _, part := range [][]float64{scratch[:top], scratch[top:]} {
		slices.Sort(part)
		for j := len(part) - 1; j >= 0; j-- {
			run += part[j]
			taken++
			if run >= goal {
				return float64(taken) / float64(n), scratch
			}
		}
	}
	return 1, scratch
}

// localization is (share of q on the checked tokens) / (their share of the
// tokens): 1 means q ignores what the verifier looked at. It is defined when
// the checked tokens (strength > 0) are some but not all, and q has mass.
func localization(q, strength []float64) (float64, bool) {
	return localizationOf(q, sum(q), strength)
}

// localizationOf is localization given total = sum(q).
func localizationOf(q []float64, total float64, strength []float64) (float64, bool) {
	var onChecked float64
	checked := 0
	for t, x := range q {
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
