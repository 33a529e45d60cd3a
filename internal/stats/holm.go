package stats

import (
	"cmp"
	"math"
	"slices"
)

// Holm is Holm's step-down correction of m p-values for a family-wise
// error rate α (the chance that any true null is rejected is at most α,
// whatever the dependence between the tests). With the p-values sorted,
// p_(1) ≤ … ≤ p_(m), the adjusted p-values are
//
//	p̃_(i) = max_{j ≤ i} min(1, (m − j + 1)·p_(j))
//
// and H_(i) is rejected when p̃_(i) ≤ α, that is when p_(j) ≤ α/(m − j + 1)
// for every j ≤ i: the smallest p-value faces Bonferroni's α/m, the next
// α/(m − 1), and the first one that fails stops the rejections. m counts
// the p-values that are not NaN (the comparisons actually made); a NaN
// p-value is never rejected and its adjusted value is NaN. The results
// are in the order of ps.
func Holm(ps []float64, alpha float64) (reject []bool, adjusted []float64) {
	reject, adjusted = make([]bool, len(ps)), make([]float64, len(ps))
	var order []int
	for i, p := range ps {
		adjusted[i] = math.NaN()
		if !math.IsNaN(p) {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(ps[a], ps[b]) })
	m, run := len(order), 0.0
	for j, i := range order {
		run = math.Max(run, math.Min(1, float64(m-j)*ps[i]))
		adjusted[i] = run
		reject[i] = run <= alpha
	}
	return reject, adjusted
}
