package topk

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/credo-rl/credo/credit"
)

// Rows on the common support, by hand: two requests of one response with
// top-2 each.
func TestTopKCommonSupport(t *testing.T) {
	reqs := []credit.ReplayRequest{{Prompt: "a", Response: []int32{7}}, {Prompt: "b", Response: []int32{7}}, {Prompt: "c", Response: []int32{8}}}
	ln := func(p float64) float32 { return float32(math.Log(p)) }
	answers := []Answer{
		{K: 2, IDs: []int32{1, 2}, LogProbs: []float32{ln(0.6), ln(0.3)}},
		{K: 2, IDs: []int32{2, 3}, LogProbs: []float32{ln(0.5), ln(0.4)}},
		{K: 2, IDs: []int32{9, -1}, LogProbs: []float32{0, 0}}, // another response: its own support
	}
	r, err := NewReplayer(reqs, answers)
	if err != nil {
		t.Fatal(err)
	}
	out, err := r.Replay(context.Background(), reqs)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]float32{{0.6, 0.3, 0, 0.1}, {0, 0.5, 0.4, 0.1}, {1, 0}}
	for i, w := range want {
		got := out[i][0]
		if len(got) != len(w) {
			t.Fatalf("request %d: row %v, want %v", i, got, w)
		}
		for v := range w {
			if math.Abs(float64(got[v]-w[v])) > 1e-6 {
				t.Errorf("request %d: row %v, want %v", i, got, w)
				break
			}
		}
	}
}

func TestTopKErrors(t *testing.T) {
	reqs := []credit.ReplayRequest{{Prompt: "a", Response: []int32{7, 8}}}
	good := func() Answer {
		return Answer{K: 2, IDs: []int32{1, 2, 3, -1}, LogProbs: []float32{-1, -2, -0.5, 0}}
	}
	cases := []struct {
		name   string
		change func(*Answer)
		field  string
		pos    int
	}{
		{"k", func(a *Answer) { a.K = 0 }, "k", -1},
		{"short ids", func(a *Answer) { a.IDs = a.IDs[:3] }, "ids", -1},
		{"short logprobs", func(a *Answer) { a.LogProbs = a.LogProbs[:3] }, "logprobs", -1},
		{"negative id", func(a *Answer) { a.IDs[2] = -2 }, "ids", 1},
		{"duplicate", func(a *Answer) { a.IDs[3] = 3 }, "ids", 1},
		{"positive", func(a *Answer) { a.LogProbs[0] = 0.5 }, "logprobs", 0},
		{"nan", func(a *Answer) { a.LogProbs[1] = float32(math.NaN()) }, "logprobs", 0},
		{"sum", func(a *Answer) { a.LogProbs[0], a.LogProbs[1] = -0.1, -0.2 }, "logprobs", 0},
	}
	for _, c := range cases {
		a := good()
		c.change(&a)
		r, err := NewReplayer(reqs, []Answer{a})
		if err == nil {
			_, err = r.Replay(context.Background(), reqs)
		}
		var te *Error
		if !errors.As(err, &te) || te.Field != c.field || te.Position != c.pos {
			t.Errorf("%s: error %v, want an Error on %s at position %d", c.name, err, c.field, c.pos)
		}
	}
	if _, err := NewReplayer(reqs, nil); err == nil {
		t.Error("no answers: no error")
	}
	r, err := NewReplayer(reqs, []Answer{good()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Replay(context.Background(), []credit.ReplayRequest{{Prompt: "b", Response: []int32{7, 8}}}); err == nil {
		t.Error("a request without an answer: no error")
	}
}
