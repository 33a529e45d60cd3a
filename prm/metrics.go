package prm

import (
	"fmt"
	"math"
	"sort"
)

// AUC is the area under the ROC curve of scores against labels: the
// probability that a random positive scores above a random negative, ties
// counting one half. It is the Mann–Whitney statistic on average ranks,
//
//	AUC = (R₊ − n₊(n₊ + 1)/2) / (n₊·n₋)
//
// with R₊ the sum of the positives' ranks. It needs at least one positive
// and one negative, and finite scores.
func AUC(scores []float64, labels []bool) (float64, error) {
	if len(scores) != len(labels) {
		return 0, fmt.Errorf("auc: %d scores for %d labels", len(scores), len(labels))
	}
	for i, s := range scores {
		if math.IsNaN(s) || math.IsInf(s, 0) {
			return 0, fmt.Errorf("auc: score %d is %v", i, s)
		}
	}
	var pos, neg int
	for _, l := range labels {
		if l {
			pos++
		} else {
			neg++
		}
	}
	if pos == 0 || neg == 0 {
		return 0, fmt.Errorf("auc: needs both classes (%d positives, %d negatives)", pos, neg)
	}
	r := ranks(scores)
	var rPos float64
	for i, l := range labels {
		if l {
			rPos += r[i]
		}
	}
	np, nn := float64(pos), float64(neg)
	return (rPos - np*(np+1)/2) / (np * nn), nil
}

// ranks gives 1-based ranks, ties sharing their average rank.
func ranks(x []float64) []float64 {
	idx := make([]int, len(x))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return x[idx[a]] < x[idx[b]] })
	r := make([]float64, len(x))
	for lo := 0; lo < len(idx); {
		hi := lo + 1
		for hi < len(idx) && x[idx[hi]] == x[idx[lo]] {
			hi++
		}
		avg := float64(lo+hi+1) / 2 // ranks lo+1 … hi
		for _, i := range idx[lo:hi] {
			r[i] = avg
		}
		lo = hi
	}
	return r
}

// Spearman is the rank correlation of x and y: Pearson's correlation of
// their average ranks. ok is false when it is undefined (fewer than two
// pairs, or a constant series).
func Spearman(x, y []float64) (rho float64, ok bool) {
	if len(x) != len(y) || len(x) < 2 {
		return 0, false
	}
	return pearson(ranks(x), ranks(y))
}

func pearson(x, y []float64) (float64, bool) {
	n := float64(len(x))
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx, my = mx/n, my/n
	var sxy, sxx, syy float64
	for i := range x {
		dx, dy := x[i]-mx, y[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return 0, false
	}
	return sxy / math.Sqrt(sxx*syy), true
}
