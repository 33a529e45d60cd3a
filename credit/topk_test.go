package credit

import (
	"context"
	"errors"
	"math"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/credo-rl/credo/credit/topk"
	"github.com/credo-rl/credo/reward"
)

// topKBatch is a batch of three responses in two groups with two rewards
// whose blocks are set, for the replay tests below.
func topKBatch() *Batch {
	return &Batch{
		Groups:  []int{0, 0, 1, 1},
		Scores:  [][]float64{{1, 0, 1, 1}, {0, 1, 0, 1}},
		Rewards: []string{"format", "answer"},
		Verdicts: [][]reward.Verdict{
			{{Score: 1, Info: "F"}, {Score: 0, Info: "F"}, {Score: 1, Info: "F"}, {Score: 1, Info: "F"}},
			{{Score: 0, Info: "A"}, {Score: 1, Info: "A"}, {Score: 0, Info: "A1"}, {Score: 1, Info: ""}},
		},
		Prompts: []string{"P", "P", "Q", "Q"},
		Tokens:  [][]int32{{1, 2, 3}, {4}, {5, 6}, {5, 6}},
		Step:    10,
	}
}

// truncate keeps the k most likely tokens of each full distribution
// (ties by id), as an engine's top-k.
func truncate(dists [][]float32, k int) topk.Answer {
	a := topk.Answer{K: k}
	for _, p := range dists {
		ids := make([]int32, len(p))
		for v := range ids {
			ids[v] = int32(v)
		}
		sort.SliceStable(ids, func(x, y int) bool { return p[ids[x]] > p[ids[y]] })
		for e := range k {
			if e < len(ids) && p[ids[e]] > 0 {
				a.IDs = append(a.IDs, ids[e])
				a.LogProbs = append(a.LogProbs, float32(math.Log(float64(p[ids[e]]))))
			} else {
				a.IDs = append(a.IDs, -1)
				a.LogProbs = append(a.LogProbs, 0)
			}
		}
	}
	return a
}

// The plan PlanReplay returns is exactly what the method asks its
// Replayer for, and names the replayed pairs.
func TestPlanReplayMatchesReplayer(t *testing.T) {
	for _, name := range []string{"mrtpo", "mrtpo+joint", "saw+mrtpo", "mrtpo+shuffle"} {
		for _, placebo := range []bool{false, true} {
			c := DefaultConfig()
			c.Placebo = placebo
			c.ScaleTo = ScaleToGRPO
			b := topKBatch()
			plan, err := PlanReplay(name, c, b)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			rp := hashReplayer(6)
			b.Replay = rp
			m, err := New(name, c)
			if err != nil {
				t.Fatal(err)
			}
			adv, _, err := m.Advantages(context.Background(), b)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.EqualFunc(rp.requests, plan.Requests, func(a, b ReplayRequest) bool {
				return a.Prompt == b.Prompt && slices.Equal(a.Response, b.Response)
			}) {
				t.Errorf("%s placebo=%v: replayer asked %v, plan says %v", name, placebo, rp.requests, plan.Requests)
			}
			// Response 3's answer block is empty: its pair needs no replay.
			// Every listed pair has relevance; response 3's answer has zeros.
			for _, p := range plan.Pairs {
				if adv.Relevance[p.Reward][p.Response] == nil {
					t.Errorf("%s: pair %+v has no relevance", name, p)
				}
				if p.Response == 3 && p.Reward == 1 && !strings.Contains(name, "joint") {
					t.Errorf("%s: pair %+v with an empty block is listed", name, p)
				}
				if (p.Placebo >= 0) != placebo {
					t.Errorf("%s: pair %+v with placebo=%v", name, p, placebo)
				}
			}
			if len(plan.Pairs) == 0 {
				t.Errorf("%s: no pairs", name)
			}
		}
	}
	if _, err := PlanReplay("gdpo", DefaultConfig(), topKBatch()); err == nil {
		t.Error("PlanReplay of gdpo: no error")
	}
	b := topKBatch()
	b.Prompts = nil
	if _, err := PlanReplay("mrtpo", DefaultConfig(), b); err == nil {
		t.Error("PlanReplay without prompts: no error")
	}
}

// Rows on the common support, by hand: two requests of one response with
// top-2 each.
func TestTopKCommonSupport(t *testing.T) {
	reqs := []ReplayRequest{{Prompt: "a", Response: []int32{7}}, {Prompt: "b", Response: []int32{7}}, {Prompt: "c", Response: []int32{8}}}
	ln := func(p float64) float32 { return float32(math.Log(p)) }
	answers := []topk.Answer{
		{K: 2, IDs: []int32{1, 2}, LogProbs: []float32{ln(0.6), ln(0.3)}},
		{K: 2, IDs: []int32{2, 3}, LogProbs: []float32{ln(0.5), ln(0.4)}},
		{K: 2, IDs: []int32{9, -1}, LogProbs: []float32{0, 0}}, // another response: its own support
	}
	r, err := NewTopKReplayer(reqs, answers)
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

// With k as large as the vocabulary, top-k replay gives the relevance of
// full distributions (to float32 rounding of exp ∘ log).
func TestTopKFullVocabularyMatchesFull(t *testing.T) {
	b := topKBatch()
	full := hashReplayer(6)
	plan, err := PlanReplay("mrtpo", DefaultConfig(), b)
	if err != nil {
		t.Fatal(err)
	}
	answers := make([]topk.Answer, len(plan.Requests))
	for r, q := range plan.Requests {
		answers[r] = truncate(full.dist(q.Prompt, q.Response), 6)
	}
	rk, err := NewTopKReplayer(plan.Requests, answers)
	if err != nil {
		t.Fatal(err)
	}
	run := func(rp Replayer) Advantages {
		b := topKBatch()
		b.Replay = rp
		m, _ := New("mrtpo", DefaultConfig())
		adv, _, err := m.Advantages(context.Background(), b)
		if err != nil {
			t.Fatal(err)
		}
		return adv
	}
	a, k := run(full), run(rk)
	var worst float64
	for kk := range a.Relevance {
		for i := range a.Relevance[kk] {
			if (a.Relevance[kk][i] == nil) != (k.Relevance[kk][i] == nil) {
				t.Fatalf("relevance rows differ in presence at %d,%d", kk, i)
			}
			for t := range a.Relevance[kk][i] {
				worst = max(worst, math.Abs(a.Relevance[kk][i][t]-k.Relevance[kk][i][t]))
			}
		}
	}
	if worst > 1e-5 {
		t.Errorf("top-V relevance differs from full by %g", worst)
	}
	t.Logf("max |q_full − q_topV| = %.3g", worst)
}

func TestTopKErrors(t *testing.T) {
	reqs := []ReplayRequest{{Prompt: "a", Response: []int32{7, 8}}}
	good := func() topk.Answer {
		return topk.Answer{K: 2, IDs: []int32{1, 2, 3, -1}, LogProbs: []float32{-1, -2, -0.5, 0}}
	}
	cases := []struct {
		name   string
		change func(*topk.Answer)
		field  string
		pos    int
	}{
		{"k", func(a *topk.Answer) { a.K = 0 }, "k", -1},
		{"short ids", func(a *topk.Answer) { a.IDs = a.IDs[:3] }, "ids", -1},
		{"short logprobs", func(a *topk.Answer) { a.LogProbs = a.LogProbs[:3] }, "logprobs", -1},
		{"negative id", func(a *topk.Answer) { a.IDs[2] = -2 }, "ids", 1},
		{"duplicate", func(a *topk.Answer) { a.IDs[3] = 3 }, "ids", 1},
		{"positive", func(a *topk.Answer) { a.LogProbs[0] = 0.5 }, "logprobs", 0},
		{"nan", func(a *topk.Answer) { a.LogProbs[1] = float32(math.NaN()) }, "logprobs", 0},
		{"sum", func(a *topk.Answer) { a.LogProbs[0], a.LogProbs[1] = -0.1, -0.2 }, "logprobs", 0},
	}
	for _, c := range cases {
		a := good()
		c.change(&a)
		r, err := NewTopKReplayer(reqs, []topk.Answer{a})
		if err == nil {
			_, err = r.Replay(context.Background(), reqs)
		}
		var te *topk.Error
		if !errors.As(err, &te) || te.Field != c.field || te.Position != c.pos {
			t.Errorf("%s: error %v, want a topk.Error on %s at position %d", c.name, err, c.field, c.pos)
		}
	}
	if _, err := NewTopKReplayer(reqs, nil); err == nil {
		t.Error("no answers: no error")
	}
	r, err := NewTopKReplayer(reqs, []topk.Answer{good()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Replay(context.Background(), []ReplayRequest{{Prompt: "b", Response: []int32{7, 8}}}); err == nil {
		t.Error("a request without an answer: no error")
	}
}
