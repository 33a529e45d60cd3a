package credit_test

import (
	"context"
	"math"
	"sort"
	"testing"

	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/credit/topk"
)

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

// With k as large as the vocabulary, top-k replay gives the relevance of
// full distributions (to float32 rounding of exp ∘ log).
func TestTopKFullVocabularyMatchesFull(t *testing.T) {
	b := credit.TopKBatch()
	full := credit.HashReplayer(6)
	plan, err := credit.PlanReplay("mrtpo", credit.DefaultConfig(), b)
	if err != nil {
		t.Fatal(err)
	}
	answers := make([]topk.Answer, len(plan.Requests))
	for r, q := range plan.Requests {
		answers[r] = truncate(full.Dist(q.Prompt, q.Response), 6)
	}
	rk, err := topk.NewReplayer(plan.Requests, answers)
	if err != nil {
		t.Fatal(err)
	}
	run := func(rp credit.Replayer) credit.Advantages {
		b := credit.TopKBatch()
		b.Replay = rp
		m, _ := credit.New("mrtpo", credit.DefaultConfig())
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
