package credit

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/credo-rl/credo/reward"
)

var allMethods = []string{"grpo", "gdpo", "span", "mrtpo", "p2t", "saw+grpo", "saw+gdpo", "saw+span", "saw+mrtpo", "saw+p2t"}

// Malformed batches give an error naming the problem, from every method.
func TestBatchErrors(t *testing.T) {
	good := func() *Batch {
		return &Batch{Groups: []int{0, 0}, Scores: [][]float64{{1, 0}}, Tokens: tokenRows(1, 2)}
	}
	for _, tc := range []struct {
		name string
		edit func(*Batch)
		want string
	}{
		{"nil", nil, "nil batch"},
		{"no rewards", func(b *Batch) { b.Scores = nil }, "no rewards"},
		{"step", func(b *Batch) { b.Step = -1 }, "negative"},
		{"tokens", func(b *Batch) { b.Tokens = b.Tokens[:1] }, "2 group ids but 1 token rows"},
		{"weights", func(b *Batch) { b.Weights = []float64{1, 2} }, "1 rewards but 2 weights"},
		{"weight nan", func(b *Batch) { b.Weights = []float64{math.NaN()} }, "weight NaN"},
		{"names", func(b *Batch) { b.Rewards = []string{"a", "b"} }, "reward names"},
		{"verdict rows", func(b *Batch) { b.Verdicts = [][]reward.Verdict{{}, {}} }, "verdict rows"},
		{"verdicts", func(b *Batch) { b.Verdicts = [][]reward.Verdict{{{}}} }, "1 verdicts for 2 responses"},
		{"scores", func(b *Batch) { b.Scores = [][]float64{{1}} }, "1 scores for 2 responses"},
		{"score inf", func(b *Batch) { b.Scores = [][]float64{{1, math.Inf(1)}} }, "score +Inf"},
		{"offset rows", func(b *Batch) { b.Offsets = [][][2]int{{{0, 1}}} }, "offset rows"},
		{"offsets", func(b *Batch) { b.Offsets = [][][2]int{{{0, 1}}, {{0, 1}}} }, "2 tokens but 1 offsets"},
	} {
		for _, name := range allMethods {
			var b *Batch
			if tc.edit != nil {
				b = good()
				tc.edit(b)
			}
			_, _, err := mustNew(t, name, DefaultConfig()).Advantages(context.Background(), b)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s, %s: err = %v, want it to mention %q", tc.name, name, err, tc.want)
			}
		}
	}
}

// An empty batch is no error and gives empty advantages.
func TestEmptyBatch(t *testing.T) {
	for _, name := range allMethods {
		b := &Batch{Scores: [][]float64{{}}, Prompts: []string{}, Responses: []string{}, Offsets: [][][2]int{},
			Replay: hashReplayer(3), PRM: &fakeInfluencer{}}
		adv, _ := run(t, name, DefaultConfig(), b)
		if len(adv.Tokens) != 0 || len(adv.Response) != 0 {
			t.Errorf("%s: %+v for an empty batch", name, adv)
		}
	}
}

// A cancelled context stops the model-backed methods.
func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ids, offs := toks(2)
	b := &Batch{Groups: []int{0, 0}, Scores: [][]float64{{1, 0}},
		Verdicts: [][]reward.Verdict{{{Info: "F"}, {Info: "F"}}}, Prompts: []string{"p", "p"},
		Tokens: [][]int32{ids, ids[:1]}, Offsets: [][][2]int{offs, offs[:1]}, Replay: hashReplayer(3)}
	if _, _, err := mustNew(t, "mrtpo", DefaultConfig()).Advantages(ctx, b); err == nil {
		t.Errorf("mrtpo ran with a cancelled context")
	}
}
