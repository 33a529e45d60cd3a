package reward

// TokenStrengths maps byte spans onto tokens. offsets[t] is token t's byte
// range [start, end) in the response. A token gets the largest strength of
// the spans that overlap it (a span that cuts a token includes it); tokens
// outside every span get 0. Empty tokens (start == end) take a span that
// contains their position.
func TokenStrengths(spans []Span, offsets [][2]int) []float64 {
	out := make([]float64, len(offsets))
	for _, s := range spans {
		if s.End < s.Start {
			continue
		}
		w := s.Weight()
		for t, o := range offsets {
			if overlaps(s, o) && w > out[t] {
				out[t] = w
			}
		}
	}
	return out
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
