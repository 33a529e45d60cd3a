package credit

import (
	"fmt"
	"math"
	"strconv"

	"github.com/credo-rl/credo/reward"
)

// view is a checked reading of a Batch that every method starts from.
type view struct {
	b      *Batch
	n, k   int
	r      [][]float64          // r[k][i], with a skipped verdict's score taken as 0     [K][N]
	c      []float64            // c[k]                                                   [K]
	skip   [][]bool             // the verdict says the reward does not apply             [K][N]
	groups [][]int              // the responses of each group, groups in order of first appearance
	varies [][]bool             // reward k varies within response i's group (Varies)     [K][N]
	names  []string             // reward names for metric keys                           [K]
	ranges []reward.TokenRanges // Offsets prepared for span mapping, once (tokenRanges) [N]
}

// tokenRanges is reward.NewTokenRanges of every response's offsets, made
// on first use: the span source and the diagnostics map a verdict's spans
// for every pair. Not safe for concurrent first use: call it before
// spreading work over the cores. Nil without Offsets.
func (v *view) tokenRanges() []reward.TokenRanges {
	if v.ranges == nil && v.b.Offsets != nil {
		v.ranges = make([]reward.TokenRanges, v.n)
		for i, o := range v.b.Offsets {
			v.ranges[i] = reward.NewTokenRanges(o)
		}
	}
	return v.ranges
}

// newView checks the shapes and values a Batch must have for every method;
// fields only some methods need (Prompts, Offsets, …) are checked by them.
func newView(b *Batch) (*view, error) {
	if b == nil {
		return nil, fmt.Errorf("nil batch")
	}
	n, k := len(b.Groups), len(b.Scores)
	if k == 0 {
		return nil, fmt.Errorf("batch has no rewards (Scores is empty)")
	}
	if b.Step < 0 {
		return nil, fmt.Errorf("batch step %d is negative", b.Step)
	}
	if len(b.Tokens) != n {
		return nil, fmt.Errorf("batch has %d group ids but %d token rows", n, len(b.Tokens))
	}
	if b.Weights != nil && len(b.Weights) != k {
		return nil, fmt.Errorf("batch has %d rewards but %d weights", k, len(b.Weights))
	}
	if b.Rewards != nil && len(b.Rewards) != k {
		return nil, fmt.Errorf("batch has %d rewards but %d reward names", k, len(b.Rewards))
	}
	if b.Verdicts != nil && len(b.Verdicts) != k {
		return nil, fmt.Errorf("batch has %d rewards but %d verdict rows", k, len(b.Verdicts))
	}
	if b.Offsets != nil && len(b.Offsets) != n {
		return nil, fmt.Errorf("batch has %d responses but %d offset rows", n, len(b.Offsets))
	}
	v := &view{b: b, n: n, k: k, r: make([][]float64, k), c: make([]float64, k),
		skip: make([][]bool, k), varies: make([][]bool, k), names: make([]string, k)}
	for i := range n {
		if b.Offsets != nil && len(b.Offsets[i]) != len(b.Tokens[i]) {
			return nil, fmt.Errorf("response %d has %d tokens but %d offsets", i, len(b.Tokens[i]), len(b.Offsets[i]))
		}
	}
	for kk := range k {
		v.names[kk] = strconv.Itoa(kk)
		if b.Rewards != nil {
			v.names[kk] = b.Rewards[kk]
		}
		v.c[kk] = 1
		if b.Weights != nil {
			v.c[kk] = b.Weights[kk]
			if !finite(v.c[kk]) {
				return nil, fmt.Errorf("reward %q has weight %v", v.names[kk], v.c[kk])
			}
		}
		if len(b.Scores[kk]) != n {
			return nil, fmt.Errorf("reward %q has %d scores for %d responses", v.names[kk], len(b.Scores[kk]), n)
		}
		if b.Verdicts != nil && len(b.Verdicts[kk]) != n {
			return nil, fmt.Errorf("reward %q has %d verdicts for %d responses", v.names[kk], len(b.Verdicts[kk]), n)
		}
		v.r[kk] = make([]float64, n)
		v.skip[kk] = make([]bool, n)
		for i, s := range b.Scores[kk] {
			if b.Verdicts != nil && b.Verdicts[kk][i].Skip {
				v.skip[kk][i] = true
				continue // the reward does not apply: score 0
			}
			if !finite(s) {
				return nil, fmt.Errorf("reward %q gives response %d the score %v", v.names[kk], i, s)
			}
			v.r[kk][i] = s
		}
	}
	v.groups = groupIndices(b.Groups)
	for kk := range k {
		v.varies[kk] = variesIn(v.r[kk], v.groups) // Varies, with skipped scores already 0
	}
	return v, nil
}

// verdict is the verdict of reward k on response i, or nil without verdicts.
func (v *view) verdict(k, i int) *reward.Verdict {
	if v.b.Verdicts == nil {
		return nil
	}
	return &v.b.Verdicts[k][i]
}

// allEqual says whether x has one value over the indices: a group without
// variance, whose advantage is exactly 0 (not a rounding error over ε).
func allEqual(x []float64, idx []int) bool {
	for _, i := range idx[1:] {
		if x[i] != x[idx[0]] {
			return false
		}
	}
	return true
}

// normMeanStd is the mean and unbiased standard deviation that the
// normalizations (GRPO, GDPO, SAW) use, of x over idx (all of x when idx
// is nil). A single value has std 1: ALGORITHMS.md's convention for a group
// of one, whose advantage (r − r)/(1 + ε) is then 0, as for any group
// without variance, instead of dividing by ε alone. Metrics and reports
// use stats.MeanStd, which gives a single value std 0.
func normMeanStd(x []float64, idx []int) (mean, std float64) {
	n := len(idx)
	if idx == nil {
		n = len(x)
	}
	at := func(j int) float64 {
		if idx == nil {
			return x[j]
		}
		return x[idx[j]]
	}
	for j := range n {
		mean += at(j)
	}
	mean /= float64(n)
	if n < 2 {
		return mean, 1
	}
	var ss float64
	for j := range n {
		d := at(j) - mean
		ss += d * d
	}
	return mean, math.Sqrt(ss / float64(n-1))
}
