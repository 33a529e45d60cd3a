package lab

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/rollout"
	"github.com/credo-rl/credo/run"
	"github.com/credo-rl/credo/sample"
	"github.com/credo-rl/credo/task"
	"github.com/credo-rl/credo/tokenizer"
)

func TestGradientNorm(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    []float32
		y    int32
		want float64
	}{
		{"sure and right", []float32{1, 0, 0, 0}, 0, 0},
		{"uniform", []float32{0.25, 0.25, 0.25, 0.25}, 0, math.Sqrt(0.75)},
		{"sure and wrong", []float32{0, 1, 0, 0}, 0, math.Sqrt(2)},
		{"two-way", []float32{0.9, 0.1, 0, 0}, 0, math.Sqrt2 * 0.1},
	} {
		if got := GradientNorm(tc.p, tc.y); math.Abs(got-tc.want) > 1e-6 {
			t.Errorf("%s: %.6f, want %.6f", tc.name, got, tc.want)
		}
	}
}

// focusReplayer gives every response token y probability sure[t] (the
// rest on one other token): g_t = √2 · (1 − sure[t]).
type focusReplayer struct {
	vocab int
	sure  func(t int) float32
}

func (f focusReplayer) Replay(_ context.Context, reqs []credit.ReplayRequest) ([][][]float32, error) {
	out := make([][][]float32, len(reqs))
	for i, r := range reqs {
		for t, y := range r.Response {
			p := make([]float32, f.vocab)
			p[y], p[(int(y)+1)%f.vocab] = f.sure(t), 1-f.sure(t)
			out[i] = append(out[i], p)
		}
	}
	return out, nil
}

// TestFocus: on "ab,c" with the comma quoted (token 2 of 5 with the end
// token), sampled at p = 0.5 and every other token at 0.9, a uniform
// advantage puts 0.5 / (0.5 + 4 · 0.1) of its update on the comma, and a
// relevance of 1 there and 0.1 elsewhere 0.5 / (0.5 + 4 · 0.01).
func TestFocus(t *testing.T) {
	tok, err := tokenizer.NewBytes()
	if err != nil {
		t.Fatal(err)
	}
	sample := func(resp string, score float64, spans []reward.Span) run.Sample {
		ids, offsets := tok.Encode(resp)
		s := run.Sample{Step: 1, Prompt: "write", Response: resp, Offsets: append(offsets, [2]int{len(resp), len(resp)})}
		for _, id := range ids {
			s.Tokens = append(s.Tokens, tok.Decode([]int32{id}))
		}
		s.Tokens = append(s.Tokens, "")
		s.Verdicts = []run.Verdict{{Reward: "no_comma", Score: score, Spans: spans}}
		s.Relevance = map[string][]float64{"no_comma": {0.1, 0.1, 1, 0.1, 0.1}}
		return s
	}
	failed := sample("ab,c", 0, []reward.Span{{Start: 2, End: 3}})
	unquoted := sample("abcd", 1, nil) // a verdict without spans: no pair
	foreign := sample("ab,c", 0, []reward.Span{{Start: 2, End: 3}})
	foreign.Tokens = foreign.Tokens[1:] // does not re-encode to its tokens
	foreign.Offsets = foreign.Offsets[1:]
	rp := focusReplayer{vocab: tok.VocabSize(), sure: func(t int) float32 {
		if t == 2 {
			return 0.5
		}
		return 0.9
	}}
	rep, err := Focus(context.Background(), rp, tok, []run.Sample{failed, unquoted, foreign})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Samples != 2 || rep.Skipped != 1 || len(rep.Rewards) != 2 {
		t.Fatalf("report %+v: want 2 samples, 1 skipped, rows no_comma and no_comma failed", rep)
	}
	for _, row := range rep.Rewards {
		want := FocusReward{Reward: row.Reward, Pairs: 1, Checked: 0.2, Uniform: 0.5 / 0.9, Logged: 1 / 1.4, Weighted: 0.5 / 0.54,
			GradientChecked: math.Sqrt2 * 0.5, GradientOther: math.Sqrt2 * 0.1}
		for _, c := range []struct {
			name      string
			got, want float64
		}{{"checked", row.Checked, want.Checked}, {"uniform", row.Uniform, want.Uniform}, {"logged", row.Logged, want.Logged},
			{"weighted", row.Weighted, want.Weighted}, {"g checked", row.GradientChecked, want.GradientChecked},
			{"g other", row.GradientOther, want.GradientOther}} {
			if math.Abs(c.got-c.want) > 1e-5 {
				t.Errorf("%s %s: %.6f, want %.6f", row.Reward, c.name, c.got, c.want)
			}
		}
		if row.Pairs != 1 {
			t.Errorf("%s: %d pairs, want 1", row.Reward, row.Pairs)
		}
	}
	if rep.Rewards[1].Reward != "no_comma failed" || !strings.Contains(rep.String(), "no_comma failed") {
		t.Errorf("rows %q, %q; want the failed verdicts' row second and in the table", rep.Rewards[0].Reward, rep.Rewards[1].Reward)
	}
	many := make([]run.Sample, 2*focusChunk+3) // several Replay calls: the same shares
	for i := range many {
		many[i] = failed
	}
	if r, err := Focus(context.Background(), rp, tok, many); err != nil || r.Samples != len(many) || r.Rewards[0].Pairs != len(many) ||
		math.Abs(r.Rewards[0].Uniform-0.5/0.9) > 1e-5 {
		t.Errorf("%d copies: %+v, %v; want every one counted, uniform %.6f", len(many), r, err, 0.5/0.9)
	}
	if _, err := Focus(context.Background(), rp, tok, []run.Sample{foreign}); err == nil || !strings.Contains(err.Error(), "re-encodes") {
		t.Errorf("only foreign samples: %v, want an error saying none re-encodes", err)
	}
}

// TestBlamed: a calibration counts only failed verdicts that quote part of
// their response, with the same shares as Focus.
func TestBlamed(t *testing.T) {
	tok, err := tokenizer.NewBytes()
	if err != nil {
		t.Fatal(err)
	}
	ids, offsets := tok.Encode("ab,c")
	resp := sample.Response{Prompt: 0, Text: "ab,c", Tokens: append(ids, tok.EOS()), Offsets: append(offsets, [2]int{4, 4})}
	comma := []reward.Span{{Start: 2, End: 3}}
	ro := rollout.Rollouts{
		Prompts:   []task.Prompt{{Text: "write"}},
		Responses: []sample.Response{resp, resp, resp},
		Verdicts: [][]reward.Verdict{{
			{Score: 0, Spans: comma}, // counted
			{Score: 1, Spans: comma}, // passed
			{Score: 0},               // quotes nothing
		}},
	}
	rp := focusReplayer{vocab: tok.VocabSize(), sure: func(t int) float32 {
		if t == 2 {
			return 0.5
		}
		return 0.9
	}}
	b := make(blamedSums, 1)
	if err := b.add(context.Background(), rp, ro); err != nil {
		t.Fatal(err)
	}
	n, tokens, update := b.of(0)
	if n != 1 || math.Abs(tokens-0.2) > 1e-9 || math.Abs(update-0.5/0.9) > 1e-6 {
		t.Errorf("blamed %d, tokens %.4f, update %.4f; want 1, 0.2, %.4f", n, tokens, update, 0.5/0.9)
	}
	words := BlamedInWords(run.RewardStart{Blamed: n, BlamedTokens: tokens, BlamedUniform: update})
	if !strings.Contains(words, "quote 20% of a response, where 56% of a uniform advantage's update") {
		t.Errorf("in words: %q", words)
	}
	if BlamedInWords(run.RewardStart{}) != "" {
		t.Error("a reward without failed quoting verdicts gets words")
	}
}
