package place

import "slices"

// Concentration is the smallest share of the tokens that holds 80% of q's
// total: sort q in decreasing order and count until the running sum reaches
// 0.8·Σq. It is 0 (undefined) when q has no mass. scratch is reused.
//
// Only the largest values are summed, and a concentrated q reaches the goal
// among the few above its mean: those are sorted and summed first, and the
// rest only if the goal is not reached. Every value above the split
// exceeds every value below it, so the running sum adds the same values in
// the same decreasing order as one full sort would, and every bit is the
// same (equal values are interchangeable, and q holds no NaN once Σq > 0).
func Concentration(q, scratch []float64) (float64, []float64) {
	return ConcentrationOf(q, Sum(q), scratch)
}

// Sum is Σq added in order: the total both diagnostics divide by, taken
// once for both.
func Sum(q []float64) float64 {
	var total float64
	for _, x := range q {
		total += x
	}
	return total
}

// ConcentrationOf is Concentration given total = Sum(q).
func ConcentrationOf(q []float64, total float64, scratch []float64) (float64, []float64) {
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

// Localization is (share of q on the checked tokens) / (their share of the
// tokens): 1 means q ignores what the verifier looked at. It is defined when
// the checked tokens (strength > 0) are some but not all, and q has mass.
func Localization(q, strength []float64) (float64, bool) {
	return LocalizationOf(q, Sum(q), strength)
}

// LocalizationOf is Localization given total = Sum(q).
func LocalizationOf(q []float64, total float64, strength []float64) (float64, bool) {
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
