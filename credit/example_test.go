package credit_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/reward"
)

// GDPO normalizes each reward within its group before summing, so a reward
// that every response of a group gets right or wrong adds nothing there.
func ExampleNew() {
	m, err := credit.New("gdpo", credit.DefaultConfig())
	if err != nil {
		panic(err)
	}
	b := &credit.Batch{
		Groups:  []int{0, 0, 0},
		Scores:  [][]float64{{1, 1, 0}, {1, 1, 1}}, // format, answer: the answer never varies
		Rewards: []string{"format", "answer"},
		Tokens:  [][]int32{{5, 6}, {5, 7, 8}, {9}},
	}
	adv, met, err := m.Advantages(context.Background(), b)
	if err != nil {
		panic(err)
	}
	for i, row := range adv.Tokens {
		fmt.Printf("response %d: Â = %+.3f, tokens %.3f\n", i, adv.Response[i], row)
	}
	fmt.Printf("skipped pairs: %.2f\n", met["credit/skipped"])
	// Output:
	// response 0: Â = +0.577, tokens [0.577 0.577]
	// response 1: Â = +0.577, tokens [0.577 0.577 0.577]
	// response 2: Â = -1.155, tokens [-1.155]
	// skipped pairs: 0.50
}

// The span method moves half of each reward's advantage (β = 0.5) onto the
// tokens the verdict blamed and, discounted by γ, onto those before them;
// the tokens still average to GDPO's advantage.
func ExampleNew_span() {
	m, err := credit.New("span", credit.DefaultConfig())
	if err != nil {
		panic(err)
	}
	// Two responses to one prompt, one token per byte; the verifier of the
	// second blames bytes 3-4, its wrong answer.
	offsets := [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}}
	b := &credit.Batch{
		Groups: []int{0, 0},
		Scores: [][]float64{{1, 0}},
		Verdicts: [][]reward.Verdict{{
			{Score: 1},
			{Score: 0, Spans: []reward.Span{{Start: 3, End: 4}}},
		}},
		Tokens:  [][]int32{{1, 2, 3, 4, 5}, {1, 2, 3, 6, 5}},
		Offsets: [][][2]int{offsets, offsets},
		Step:    10, // past the warm-up
	}
	adv, _, err := m.Advantages(context.Background(), b)
	if err != nil {
		panic(err)
	}
	for i, row := range adv.Tokens {
		fmt.Printf("response %d: Â = %+.3f, q %.2f, tokens %.3f\n", i, adv.Response[i], adv.Relevance[0][i], row)
	}
	// q = 0.9^(3−t) up to the span, 0 after; mean 0.688; w = 0.5 + 0.5·q/0.688.

	// Output:
	// response 0: Â = +0.707, q [1.00 1.00 1.00 1.00 1.00], tokens [0.707 0.707 0.707 0.707 0.707]
	// response 1: Â = -0.707, q [0.73 0.81 0.90 1.00 0.00], tokens [-0.728 -0.770 -0.816 -0.868 -0.354]
}

// twoBlockReplayer is a synthetic policy over a vocabulary of 4: removing
// a reward's block changes the next-token distribution strongly at every
// 8th position (the tokens that reward checks) and slightly elsewhere.
type twoBlockReplayer struct{}

func (twoBlockReplayer) Replay(_ context.Context, reqs []credit.ReplayRequest) ([][][]float32, error) {
	out := make([][][]float32, len(reqs))
	for r, req := range reqs {
		full := !strings.HasSuffix(req.Prompt, "prompt") // a block follows the prompt
		out[r] = make([][]float32, len(req.Response))
		for t := range req.Response {
			p := []float32{0.7, 0.1, 0.1, 0.1}
			switch {
			case full:
			case t%8 == 3:
				p = []float32{0.1, 0.7, 0.1, 0.1}
			default:
				p = []float32{0.66, 0.14, 0.1, 0.1}
			}
			out[r][t] = p
		}
	}
	return out, nil
}

// The replay source's two forms on one synthetic batch: the divergence
// JS/ln 2 (default) and the paper's distance √(JS/ln 2). The same replays
// concentrate 80% of the relevance on far fewer tokens as a divergence.
func ExampleConfig_jsForm() {
	b := &credit.Batch{
		Groups:   []int{0, 0},
		Scores:   [][]float64{{1, 0}},
		Rewards:  []string{"call"},
		Verdicts: [][]reward.Verdict{{{Score: 1, Info: "reference"}, {Info: "reference"}}},
		Prompts:  []string{"prompt", "prompt"},
		Tokens:   [][]int32{make([]int32, 64), make([]int32, 64)},
		Replay:   twoBlockReplayer{},
	}
	for _, form := range []credit.JSForm{credit.JSFormDivergence, credit.JSFormDistance} {
		c := credit.DefaultConfig()
		c.JS = form
		m, err := credit.New("mrtpo", c)
		if err != nil {
			panic(err)
		}
		_, met, err := m.Advantages(context.Background(), b)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%-10s 80%% of q on %.0f%% of the tokens\n", form, 100*met["credit/concentration/call"])
	}
	// Strong change: JS/ln 2 = 0.365 on 8 tokens; slight: 0.0028 on 56.

	// Output:
	// divergence 80% of q on 11% of the tokens
	// distance   80% of q on 55% of the tokens
}
