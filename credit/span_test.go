package credit

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/credo-rl/credo/reward"
)

func TestDiscount(t *testing.T) {
	for _, tc := range []struct {
		strength []float64
		gamma    float64
		want     []float64
	}{
		// One span on token 3, γ = 0.5: 1, 0.5, 0.25, 0.125 going back.
		{[]float64{0, 0, 0, 1, 0}, 0.5, []float64{0.125, 0.25, 0.5, 1, 0}},
		// Strengths 1 at 1 and 2 at 3: h3 = 2, h2 = 1, h1 = 1 + 0.5 = 1.5, h0 = 0.75.
		{[]float64{0, 1, 0, 2}, 0.5, []float64{0.75, 1.5, 1, 2}},
		// γ = 0: the spans alone.
		{[]float64{0, 3, 0}, 0, []float64{0, 3, 0}},
		{nil, 0.9, []float64{}},
	} {
		assertRow(t, "h", discount(append([]float64(nil), tc.strength...), tc.gamma), tc.want, 1e-15)
	}
}

// Spans are byte ranges; tokens carry byte offsets that may cut a
// multi-byte character. The judge's quotes are located with strings.Index.
func TestSpanUTF8(t *testing.T) {
	resp := "ça — oui"
	// ç = C3 A7 (bytes 0-2), "a " (2-4), — = E2 80 94 (4-7), " " (7-8), oui (8-11).
	// A byte-level tokenizer splits the dash across two tokens.
	offsets := [][2]int{{0, 2}, {2, 4}, {4, 6}, {6, 7}, {7, 8}, {8, 11}}
	dash := strings.Index(resp, "—")
	oui := strings.Index(resp, "oui")
	if dash != 4 || oui != 8 || len(resp) != 11 {
		t.Fatalf("byte layout of %q is not the one worked out by hand", resp)
	}
	spans := []reward.Span{{Start: dash, End: dash + len("—")}, {Start: oui, End: oui + 3, Strength: 2}}
	// Strengths [0, 0, 1, 1, 0, 2]; γ = 0.9 going back:
	// h5 = 2, h4 = 0 + 1.8 = 1.8, h3 = 1 + 1.62 = 2.62, h2 = 1 + 2.358 = 3.358,
	// h1 = 0 + 3.0222 = 3.0222, h0 = 0 + 2.71998 = 2.71998.
	want := []float64{2.71998, 3.0222, 3.358, 2.62, 1.8, 2}

	ids := []int32{10, 11, 12, 13, 14, 15}
	b := &Batch{
		Groups:    []int{0, 0},
		Scores:    [][]float64{{1, 0}},
		Verdicts:  [][]reward.Verdict{{{Score: 1, Spans: spans}, {Score: 0}}},
		Responses: []string{resp, resp},
		Tokens:    [][]int32{ids, ids},
		Offsets:   [][][2]int{offsets, offsets},
		Step:      10,
	}
	adv, _ := run(t, "span", DefaultConfig(), b)
	assertRow(t, "q", adv.Relevance[0][0], want, 1e-12)
	// No spans: uniform relevance.
	assertRow(t, "q without spans", adv.Relevance[0][1], []float64{1, 1, 1, 1, 1, 1}, 0)
}

func TestSpanMethodTable(t *testing.T) {
	// One reward, a group of two: r = [1, 0], A = ±d, d = 0.5/(√0.5 + ε) = 0.70700680;
	// S = [d, −d], mean 0, std d·√2, denominator d√2 + ε = 0.99995860.
	// Response 0 has a span on token 3 of 5; γ = 0.5 → q = [1/8, 1/4, 1/2, 1, 0],
	// mean 3/8; β = 0.5 → w = 0.5 + 0.5·q/(3/8) = [2/3, 5/6, 7/6, 11/6, 1/2].
	// Token t: d·w[t]/0.99995860. Response 1 has no span: uniform, −d/0.99995860.
	ids, offs := toks(5)
	b := &Batch{
		Groups:   []int{0, 0},
		Scores:   [][]float64{{1, 0}},
		Verdicts: [][]reward.Verdict{{{Score: 1, Spans: []reward.Span{{Start: 3, End: 4}}}, {}}},
		Tokens:   [][]int32{ids, ids},
		Offsets:  [][][2]int{offs, offs},
		Step:     12,
	}
	c := DefaultConfig()
	c.Gamma = 0.5
	adv, met := run(t, "span", c, b)
	assertRow(t, "tokens[0]", adv.Tokens[0], []float64{0.471357378387193, 0.5891967229839913, 0.8248754121775878, 1.2962327905647808, 0.35351803379039476}, 1e-12)
	assertRow(t, "tokens[1]", adv.Tokens[1], []float64{-0.7070360675807895, -0.7070360675807895, -0.7070360675807895, -0.7070360675807895, -0.7070360675807895}, 1e-12)
	assertRow(t, "Response", adv.Response, []float64{0.7070360675807895, -0.7070360675807895}, 1e-12)
	// Localization of response 0: the checked token 3 holds 1/1.875 of q and
	// is 1/5 of the tokens: (8/15)/(1/5) = 8/3. Response 1 has no span: undefined.
	if got := met["credit/localization/0"]; !near(got, 8.0/3, 1e-12) {
		t.Errorf("localization = %v, want 8/3", got)
	}
	// Concentration: q sorted 1, 1/2, 1/4, … reaches 0.8·1.875 = 1.5 after
	// 2 tokens (2/5); uniform needs 4 of 5 (4/5): mean 0.6.
	if got := met["credit/concentration/0"]; !near(got, 0.6, 1e-12) {
		t.Errorf("concentration = %v, want 0.6", got)
	}
	if met["credit/beta"] != 0.5 {
		t.Errorf("credit/beta = %v, want 0.5", met["credit/beta"])
	}

	// With a warm-up, step 0 has β = 0: exactly GDPO.
	b.Step = 0
	c.SpanWarmup = 10
	adv0, _ := run(t, "span", c, b)
	gd, _ := run(t, "gdpo", c, b)
	for i := range adv0.Tokens {
		for t2, x := range adv0.Tokens[i] {
			if x != gd.Tokens[i][t2] {
				t.Errorf("step 0: token %d,%d = %v, GDPO %v", i, t2, x, gd.Tokens[i][t2])
			}
		}
	}

	// Offsets are required.
	b.Offsets = nil
	if _, _, err := mustNew(t, "span", c).Advantages(t.Context(), b); err == nil || !strings.Contains(err.Error(), "Offsets") {
		t.Errorf("span without offsets: err = %v", err)
	}
}

// A judge's quote carries its effect: a "−" quote in a response whose
// reward advantage is positive gets negative token advantages, a "+" quote
// in one whose advantage is negative positive ones, and the tokens still
// average to GDPO's advantage. Worked with γ = 0, β = 0.5: one quoted token
// of five has q = −1 against the advantage, mean q = −0.2, mean |q| = 0.2,
// so w = 1 + β·(q − mean q)/mean |q| = −1 there and 1.5 elsewhere.
func TestSpanSignedQuotes(t *testing.T) {
	ids, offs := toks(5)
	d := 0.5 / (math.Sqrt(0.5) + 1e-4) // A = ±d for scores [1, 0]
	denom := d*math.Sqrt2 + 1e-4       // S = [d, −d]: mean 0, std d√2
	for _, tc := range []struct {
		name   string
		spans  [2][]reward.Span
		token0 []float64 // in units of d/denom
		token1 []float64
	}{{
		name:   "minus quote, positive advantage",
		spans:  [2][]reward.Span{{{Start: 4, End: 5, Effect: reward.Lowered}}, nil},
		token0: []float64{1.5, 1.5, 1.5, 1.5, -1},
		token1: []float64{-1, -1, -1, -1, -1},
	}, {
		name:   "plus quote, negative advantage",
		spans:  [2][]reward.Span{nil, {{Start: 0, End: 1, Effect: reward.Raised}}},
		token0: []float64{1, 1, 1, 1, 1},
		token1: []float64{1, -1.5, -1.5, -1.5, -1.5},
	}, {
		// A quote that agrees with the advantage is placed as a verifier's
		// span: q = [0, 0, 0, 0, 1], w = 0.5 + 0.5·q/0.2 = [0.5, …, 3].
		name:   "quotes with the advantage",
		spans:  [2][]reward.Span{{{Start: 4, End: 5, Effect: reward.Raised}}, {{Start: 4, End: 5, Effect: reward.Lowered}}},
		token0: []float64{0.5, 0.5, 0.5, 0.5, 3},
		token1: []float64{-0.5, -0.5, -0.5, -0.5, -3},
	}, {
		// Against the advantage on 4 tokens of 5: q = −1 there, mean −0.8,
		// mean |q| 0.8, w = 1 + 0.5·(−0.2)/0.8 = 0.875 on them and 1.5 on
		// the last: less of the advantage, not its opposite.
		name:   "minus quote over most of the response",
		spans:  [2][]reward.Span{{{Start: 0, End: 4, Effect: reward.Lowered}}, nil},
		token0: []float64{0.875, 0.875, 0.875, 0.875, 1.5},
		token1: []float64{-1, -1, -1, -1, -1},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			b := &Batch{
				Groups:   []int{0, 0},
				Scores:   [][]float64{{1, 0}},
				Verdicts: [][]reward.Verdict{{{Score: 1, Spans: tc.spans[0]}, {Spans: tc.spans[1]}}},
				Tokens:   [][]int32{ids, ids},
				Offsets:  [][][2]int{offs, offs},
			}
			c := DefaultConfig()
			c.Gamma = 0
			adv, _ := run(t, "span", c, b)
			for i, want := range [][]float64{tc.token0, tc.token1} {
				scaled := make([]float64, len(want))
				var mean float64
				for t2, x := range want {
					scaled[t2] = x * d / denom
					mean += adv.Tokens[i][t2] / float64(len(want))
				}
				assertRow(t, fmt.Sprintf("tokens[%d]", i), adv.Tokens[i], scaled, 1e-12)
				if !near(mean, adv.Response[i], 1e-12) {
					t.Errorf("response %d averages %v, Â = %v", i, mean, adv.Response[i])
				}
			}
		})
	}
}

// With the default γ (0.9) a blamed phrase's lead-up is blamed too, with
// discounted weight. A token then changes sign exactly when its share of
// the blame is large enough: with every q ≤ 0, w[t] = 1 − β·(|q[t]|/mean |q| − 1)
// is negative iff |q[t]| > (1 + 1/β)·mean |q|, three times the mean at β =
// 0.5. A one-token quote late in 60 tokens (|q| = 1, mean |q| 0.16) flips;
// the last token of a three-token quote (|q| = 1, mean 0.49) only loses
// most of its share, and a quote over the whole response moves the blame
// within it without flipping any. β = 0 still gives GDPO bit for bit.
func TestSpanMinusQuoteDefaults(t *testing.T) {
	resp := strings.Repeat("x", 60)
	ids, offs := toks(len(resp))
	c := DefaultConfig()
	for _, quote := range [][2]int{{41, 42}, {40, 43}, {5, 6}, {0, 60}} {
		b := &Batch{
			Groups:   []int{0, 0},
			Scores:   [][]float64{{1, 0}},
			Verdicts: [][]reward.Verdict{{{Score: 1, Spans: []reward.Span{{Start: quote[0], End: quote[1], Effect: reward.Lowered}}}, {}}},
			Tokens:   [][]int32{ids, ids},
			Offsets:  [][][2]int{offs, offs},
		}
		adv, _ := run(t, "span", c, b)
		if adv.Response[0] <= 0 {
			t.Fatalf("Â[0] = %v, want > 0", adv.Response[0])
		}
		q := adv.Relevance[0][0]
		var meanAbs float64
		for _, x := range q {
			if x > 0 {
				t.Fatalf("quote %v: q %v > 0 with only a quote against the advantage", quote, x)
			}
			meanAbs -= x / float64(len(q))
		}
		flipped := 0
		for t2 := range q {
			neg := adv.Tokens[0][t2] < 0
			if want := -q[t2] > (1+1/c.Beta)*meanAbs; neg != want {
				t.Errorf("quote %v, token %d: advantage %v with |q| %v, mean |q| %v", quote, t2, adv.Tokens[0][t2], -q[t2], meanAbs)
			}
			if neg && t2 >= quote[0] && t2 < quote[1] {
				flipped++
			}
		}
		switch quote {
		case [2]int{41, 42}, [2]int{5, 6}: // a one-token quote always flips here
			if flipped != 1 {
				t.Errorf("one-token quote %v: not negative (%v)", quote, adv.Tokens[0][quote[0]])
			}
		case [2]int{40, 43}:
			if flipped != 2 {
				t.Errorf("three-token quote: %d of its tokens negative, want the first 2", flipped)
			}
		case [2]int{0, 60}: // blaming everything moves the blame, never flips it
			if flipped != 0 {
				t.Errorf("a quote over the whole response flipped %d tokens", flipped)
			}
		}
		c0 := c
		c0.Beta = 0
		zero, _ := run(t, "span", c0, b)
		gd, _ := run(t, "gdpo", c0, b)
		for i := range zero.Tokens {
			if !slices.Equal(zero.Tokens[i], gd.Tokens[i]) {
				t.Errorf("β = 0: tokens %v, GDPO %v", zero.Tokens[i], gd.Tokens[i])
			}
		}
	}
}
