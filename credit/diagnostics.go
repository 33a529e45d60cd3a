package credit

import (
	"math"
	"slices"

	"github.com/credo-rl/credo/credit/place"
	"github.com/credo-rl/credo/internal/parallel"
	"github.com/credo-rl/credo/reward"
)

// diagnose adds the diagnostics of ALGORITHMS.md §5 to m, over the
// (response, reward) pairs whose verdict applies (not Skip), on |q|:
//
//	credit/concentration/<reward>  mean of place.Concentration(q) over the pairs with relevance
//	credit/localization/<reward>   mean of place.Localization(q, checked) where it is defined
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
	parallel.Each(v.n, func() *diagScratch { return &diagScratch{} }, func(s *diagScratch, i int) {
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

// pair is place.Concentration(|q|) and, with a verdict and offsets (ranges),
// place.Localization(|q|, the verdict's checked tokens) for relevance row.
func (s *diagScratch) pair(row []float64, vd *reward.Verdict, ranges []reward.TokenRanges, i int) pairDiagnostics {
	var d pairDiagnostics
	var q []float64
	q, s.abs = magnitude(row, s.abs)
	d.conc = s.lastConc
	same := len(row) > 0 && len(row) == len(s.last) && &row[0] == &s.last[0]
	total := s.lastTotal
	if !same {
		total = place.Sum(q)
		d.conc, s.scratch = place.ConcentrationOf(q, total, s.scratch)
		s.last, s.lastConc, s.lastTotal = row, d.conc, total
	}
	if vd != nil && ranges != nil {
		n := len(ranges[i].Offsets())
		s.strength = slices.Grow(s.strength[:0], n)[:n]
		ranges[i].Fill(s.strength, nil, vd.Spans)
		d.loc, d.hasLoc = place.LocalizationOf(q, total, s.strength)
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
