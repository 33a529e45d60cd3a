package suggest

import "strings"

// Closest returns the name in known nearest to name by edit distance
// (Distance, case ignored), when that distance is at most
// max(1, len(name)/3) runes and no other name is as near; ok is false
// otherwise, so a guess is offered only where one name stands out. A name
// of one rune gets none: every short name is near it.
func Closest(name string, known []string) (best string, ok bool) {
	if len([]rune(name)) < 2 {
		return "", false
	}
	limit := max(1, len([]rune(name))/3)
	bestD, ties := limit+1, 0
	lower := strings.ToLower(name)
	for _, k := range known {
		if k == name {
			continue
		}
		switch d := Distance(lower, strings.ToLower(k)); {
		case d < bestD:
			best, bestD, ties = k, d, 1
		case d == bestD && k != best:
			ties++
		}
	}
	if bestD > limit || ties != 1 {
		return "", false
	}
	return best, true
}

// Hint is `: did you mean "x"?` for the known name x Closest finds, or ""
// when none stands out, to follow the name in an "unknown …" message.
func Hint(name string, known []string) string {
	if k, ok := Closest(name, known); ok {
		return `: did you mean "` + k + `"?`
	}
	return ""
}

// Distance is the edit distance between a and b, in runes: the fewest
// insertions, deletions, substitutions and swaps of two adjacent runes
// that turn a into b (Levenshtein's, with a swap costing 1 as a typo
// does: the optimal string alignment distance).
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	// Three rows of the (len(ra)+1) × (len(rb)+1) table: i-2, i-1, i.
	pp := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], pp[j-2]+1)
			}
		}
		pp, prev, cur = prev, cur, pp
	}
	return prev[len(rb)]
}
