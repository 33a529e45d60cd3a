package prm

// Carry moves per-token values from one tokenization of a text to
// another through byte ranges (both lists in order and disjoint). A value
// of a `from` token is split evenly among the `to` tokens its bytes
// overlap: a `to` token that holds several whole `from` tokens gets their
// sum, and a `from` token spanning k `to` tokens gives each 1/k of its
// value. Sums are kept: Σ out = Σ values, except for the values of `from`
// tokens that no `to` token overlaps (empty ranges, or bytes the `to`
// tokens do not cover, as in a truncated response), which are dropped.
func Carry(from [][2]int, values []float64, to [][2]int) []float64 {
	out := make([]float64, len(to))
	k0 := 0 // the first `to` token that may overlap the current `from` token
	for j, f := range from {
		a, b := f[0], f[1]
		if a >= b {
			continue
		}
		for k0 < len(to) && to[k0][1] <= a {
			k0++
		}
		n := 0
		for k := k0; k < len(to) && to[k][0] < b; k++ {
			if overlaps(to[k], a, b) {
				n++
			}
		}
		if n == 0 {
			continue
		}
		share := values[j] / float64(n)
		for k := k0; k < len(to) && to[k][0] < b; k++ {
			if overlaps(to[k], a, b) {
				out[k] += share
			}
		}
	}
	return out
}

// overlaps reports whether the byte range r shares a byte with [a, b).
func overlaps(r [2]int, a, b int) bool { return max(r[0], a) < min(r[1], b) }

// tokenRange is the range [start, end) of the tokens (byte ranges toks, in
// order and disjoint) that overlap the bytes [a, b), starting no earlier
// than from, so that consecutive steps never share a token: a token that
// straddles two steps belongs to the first. A step no token overlaps gets
// an empty range where it would be.
func tokenRange(toks [][2]int, a, b, from int) (start, end int) {
	start = from
	for start < len(toks) && toks[start][1] <= a {
		start++
	}
	end = start
	for k := start; k < len(toks) && toks[k][0] < b; k++ {
		if overlaps(toks[k], a, b) {
			end = k + 1
		}
	}
	for start < end && !overlaps(toks[start], a, b) {
		start++ // leading empty-range tokens belong to no step
	}
	return start, end
}
