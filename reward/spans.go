package reward

import "sort"

// Effect says what a span of a response did to its verdict's score.
// Neutral (the zero value) says only that the score depends on the part,
// as a rule-based verifier's checked part does: its credit follows the
// reward's advantage. Raised and Lowered are an LLM judge's "+" and "−"
// quotes: credit gives the part the sign of its effect whatever the
// response's advantage, good parts positive and bad parts negative, as the
// token-heatmap method does (credit's span source, ALGORITHMS.md §2).
type Effect int

const (
	Lowered Effect = -1 // the part lowered the score (a judge's "−" quote)
	Neutral Effect = 0  // the score depends on the part
	Raised  Effect = 1  // the part raised the score (a judge's "+" quote)
)

// TokenStrengths maps byte spans onto tokens. offsets[t] is token t's byte
// range [start, end) in the response. A token gets the largest strength of
// the spans that overlap it (a span that cuts a token includes it); tokens
// outside every span get 0. Empty tokens (start == end) take a span that
// contains their position.
func TokenStrengths(spans []Span, offsets [][2]int) []float64 {
	out, _ := TokenEffects(spans, offsets)
	return out
}

// TokenEffects is TokenStrengths with each token's effect: that of the
// strongest span over the token (the one whose strength TokenStrengths
// gives it), and on a tie the lowest (a part one quote blames and
// another praises is not praised). Tokens outside every span are Neutral.
// Overlapping spans take the largest strength rather than a sum: a token
// quoted twice is not twice as relevant (a choice of credo's; the method's
// description leaves it open).
func TokenEffects(spans []Span, offsets [][2]int) ([]float64, []Effect) {
	strength := make([]float64, len(offsets))
	effect := make([]Effect, len(offsets))
	FillTokenEffects(strength, effect, spans, offsets)
	return strength, effect
}

// FillTokenEffects is TokenEffects into the caller's slices, which must
// have len(offsets) entries; effect may be nil when only the strengths are
// wanted. Both are overwritten.
func FillTokenEffects(strength []float64, effect []Effect, spans []Span, offsets [][2]int) {
	NewTokenRanges(offsets).Fill(strength, effect, spans)
}

// TokenRanges is a response's token offsets prepared for mapping many
// verdicts' spans onto them (one per reward, and again for diagnostics).
type TokenRanges struct {
	offsets [][2]int
	sorted  bool // starts and ends both nondecreasing, as any tokenizer's are
}

// NewTokenRanges checks once whether the offsets are sorted.
func NewTokenRanges(offsets [][2]int) TokenRanges {
	sorted := true
	for t := 1; t < len(offsets) && sorted; t++ {
		sorted = offsets[t-1][0] <= offsets[t][0] && offsets[t-1][1] <= offsets[t][1]
	}
	return TokenRanges{offsets: offsets, sorted: sorted}
}

// Offsets are the offsets the ranges were made from.
func (r TokenRanges) Offsets() [][2]int { return r.offsets }

// Fill is FillTokenEffects on these offsets.
//
// On sorted offsets a span can only overlap the tokens t with end[t] ≥
// span start and start[t] ≤ span end, a contiguous range found by binary
// search; only those are tested, with the same test and in the same order
// as a scan of every token, so the result is the same.
func (r TokenRanges) Fill(strength []float64, effect []Effect, spans []Span) {
	offsets := r.offsets
	clear(strength)
	clear(effect)
	for _, s := range spans {
		if s.End < s.Start {
			continue
		}
		lo, hi := 0, len(offsets)
		if r.sorted {
			lo = sort.Search(len(offsets), func(i int) bool { return offsets[i][1] >= s.Start })
			hi = lo + sort.Search(len(offsets)-lo, func(i int) bool { return offsets[lo+i][0] > s.End })
		}
		w, e := s.Weight(), max(Lowered, min(Raised, s.Effect))
		for t := lo; t < hi; t++ {
			if !overlaps(s, offsets[t]) || w < strength[t] {
				continue
			}
			if w > strength[t] {
				strength[t] = w
				if effect != nil {
					effect[t] = e
				}
			} else if w > 0 && effect != nil { // a tie between spans
				effect[t] = min(effect[t], e)
			}
		}
	}
}

func overlaps(s Span, o [2]int) bool {
	if o[0] == o[1] { // an empty token: inside the span or not
		return s.Start <= o[0] && o[0] < s.End
	}
	if s.Start == s.End { // an empty span marks a position: the token holding it
		return o[0] <= s.Start && s.Start < o[1]
	}
	return s.Start < o[1] && o[0] < s.End
}
