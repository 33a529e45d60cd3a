package sample

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestDraw(t *testing.T) {
	probs := []float64{0.5, 0.3, 0.15, 0.05}
	tests := []struct {
		topP, u float64
		want    int
	}{
		{1, 0.0, 0}, {1, 0.49, 0}, {1, 0.51, 1}, {1, 0.81, 2}, {1, 0.999, 3},
		{0.5, 0.99, 0},                // the nucleus is the first token alone
		{0.8, 0.99, 1}, {0.8, 0.5, 0}, // two tokens: u·0.8 = 0.4 < 0.5
		{0.81, 0.99, 2}, // three tokens reach 0.81
	}
	for _, tt := range tests {
		if got := draw(probs, 1, tt.topP, tt.u); got != tt.want {
			t.Errorf("draw(top-p %g, u %g) = %d, want %d", tt.topP, tt.u, got, tt.want)
		}
	}
}

func TestPick(t *testing.T) {
	logits := []float32{1, 3, 2, -1}
	rng := rand.New(rand.NewPCG(1, 2))
	id, lp := pick(logits, Config{Temperature: 0, TopP: 1}, rng)
	z := math.Exp(1) + math.Exp(3) + math.Exp(2) + math.Exp(-1)
	if id != 1 || math.Abs(float64(lp)-(3-math.Log(z))) > 1e-6 {
		t.Errorf("greedy pick = %d, %g", id, lp)
	}
	// Sampling at temperature 1 follows softmax: check frequencies.
	counts := make([]int, 4)
	const n = 20000
	for range n {
		id, lp := pick(logits, Config{Temperature: 1, TopP: 1}, rng)
		counts[id]++
		if math.Abs(float64(lp)-(float64(logits[id])-math.Log(z))) > 1e-6 {
			t.Fatalf("log-prob %g of token %d is not the untempered one", lp, id)
		}
	}
	for i, c := range counts {
		want := math.Exp(float64(logits[i])) / z
		if got := float64(c) / n; math.Abs(got-want) > 0.015 {
			t.Errorf("token %d drawn %.3f of the time, want %.3f", i, got, want)
		}
	}
	// A low temperature concentrates on the best token; top-p cuts the tail.
	for range 1000 {
		if id, _ := pick(logits, Config{Temperature: 1, TopP: 0.6}, rng); id != 1 {
			t.Fatalf("top-p 0.6 drew token %d outside the nucleus {1}", id)
		}
	}
}

// TestPickSuppress: a suppressed token is never drawn, greedy or sampled,
// even when it is the likeliest (issue 49: a 1M policy with tied
// embeddings sampled the <|assistant|> it had just read), and the
// others keep their relative odds.
func TestPickSuppress(t *testing.T) {
	logits := []float32{1, 3, 2, -1}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct {
		name     string
		c        Config
		suppress []int32
		never    []int32
	}{
		{"greedy", Config{Temperature: 0, TopP: 1}, []int32{1}, []int32{1}},
		{"sampled", Config{Temperature: 1, TopP: 1}, []int32{1, 3}, []int32{1, 3}},
		{"top-p", Config{Temperature: 1, TopP: 0.5}, []int32{1}, []int32{0, 1, 3}}, // the nucleus is token 2 alone
		{"out of range ignored", Config{Temperature: 0, TopP: 1}, []int32{-1, 9}, []int32{0, 2, 3}},
	} {
		c := tc.c
		c.Suppress = tc.suppress
		counts := make([]int, len(logits))
		for range 2000 {
			id, lp := pick(logits, c, rng)
			counts[id]++
			if math.IsInf(float64(lp), 0) || math.IsNaN(float64(lp)) {
				t.Fatalf("%s: log-prob %g", tc.name, lp)
			}
		}
		for _, id := range tc.never {
			if counts[id] > 0 {
				t.Errorf("%s: token %d drawn %d times", tc.name, id, counts[id])
			}
		}
	}
	if logits[1] != 3 {
		t.Error("pick changed the caller's logits")
	}
	// Sampled with 1 and 3 suppressed: 0 and 2 at odds e^1 : e^2.
	c := Config{Temperature: 1, TopP: 1, Suppress: []int32{1, 3}}
	n2 := 0
	const n = 20000
	for range n {
		if id, _ := pick(logits, c, rng); id == 2 {
			n2++
		}
	}
	if want := math.Exp(2) / (math.Exp(1) + math.Exp(2)); math.Abs(float64(n2)/n-want) > 0.015 {
		t.Errorf("token 2 drawn %.3f of the time, want %.3f", float64(n2)/n, want)
	}
}
