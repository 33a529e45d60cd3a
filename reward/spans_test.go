package reward

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// tokenEffectsScan is TokenEffects as it was first written: every span
// tested against every token. The binary-searched form must agree with it.
func tokenEffectsScan(spans []Span, offsets [][2]int) ([]float64, []Effect) {
	strength := make([]float64, len(offsets))
	effect := make([]Effect, len(offsets))
	for _, s := range spans {
		if s.End < s.Start {
			continue
		}
		w, e := s.Weight(), max(Lowered, min(Raised, s.Effect))
		for t, o := range offsets {
			if !overlaps(s, o) || w < strength[t] {
				continue
			}
			if w > strength[t] {
				strength[t], effect[t] = w, e
			} else if w > 0 {
				effect[t] = min(effect[t], e)
			}
		}
	}
	return strength, effect
}

// On random offsets (tokenizer-like ones with empty and overlapping
// tokens, and unordered ones) and spans of every kind, TokenEffects gives
// what the full scan gives, and FillTokenEffects overwrites stale buffers.
func TestTokenEffectsMatchesScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 3000 {
		T := rng.IntN(40)
		offsets := make([][2]int, T)
		pos := 0
		for i := range offsets {
			start := pos - rng.IntN(2) // sometimes overlapping the previous token
			pos += rng.IntN(4)         // sometimes empty
			offsets[i] = [2]int{max(0, start), pos}
		}
		if trial%5 == 0 {
			rng.Shuffle(T, func(a, b int) { offsets[a], offsets[b] = offsets[b], offsets[a] })
		}
		var spans []Span
		for range rng.IntN(5) {
			a := rng.IntN(pos + 3)
			spans = append(spans, Span{Start: a, End: a + rng.IntN(8) - 2,
				Strength: []float64{0, 0.5, 1, 2, -1}[rng.IntN(5)], Effect: Effect(rng.IntN(5) - 2)})
		}
		ws, we := tokenEffectsScan(spans, offsets)
		gs, ge := TokenEffects(spans, offsets)
		if !slices.Equal(gs, ws) || !slices.Equal(ge, we) {
			t.Fatalf("trial %d: offsets %v spans %v: got %v %v, want %v %v", trial, offsets, spans, gs, ge, ws, we)
		}
		s, e := make([]float64, T), make([]Effect, T)
		for i := range s {
			s[i], e[i] = 9, Raised
		}
		FillTokenEffects(s, e, spans, offsets)
		FillTokenEffects(s[:T:T], nil, spans, offsets)
		if !slices.Equal(s, ws) || !slices.Equal(e, we) {
			t.Fatalf("trial %d: FillTokenEffects gave %v %v, want %v %v", trial, s, e, ws, we)
		}
	}
}
