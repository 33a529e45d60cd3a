package model

import (
	"context"
	"math"
	"testing"
)

// TestDecodeMatchesFullForward feeds tokens through Prefill and Decode and
// compares every step's logits, after log-softmax, with a full forward pass
// over the same sequence: the cache must change speed, not results.
func TestDecodeMatchesFullForward(t *testing.T) {
	ctx := context.Background()
	m, err := New(Tiny(40), 3)
	if err != nil {
		t.Fatal(err)
	}
	prompts := [][]int32{{1, 2, 3, 4, 5}, {7, 8}, {9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26}}
	const group, steps = 2, 12
	cache, logits, err := m.Prefill(ctx, prompts, group, steps)
	if err != nil {
		t.Fatal(err)
	}
	defer cache.Free()
	seqs := make([][]int32, len(prompts)*group)
	for r := range seqs {
		seqs[r] = append([]int32(nil), prompts[r/group]...)
	}
	var got [][]float32 // per row, per step: log p of the token fed next
	got = make([][]float32, len(seqs))
	for step := range steps {
		next := make([]int32, len(seqs))
		for r, l := range logits {
			next[r] = int32((r*7 + step*3) % 40) // arbitrary, different per row
			got[r] = append(got[r], logSoftmaxAt(l, int(next[r])))
			seqs[r] = append(seqs[r], next[r])
		}
		if logits, err = m.Decode(ctx, cache, next); err != nil {
			t.Fatal(err)
		}
	}
	full, err := m.LogProbs(ctx, seqs)
	if err != nil {
		t.Fatal(err)
	}
	worst := 0.0
	for r := range seqs {
		p := len(prompts[r/group])
		for s := range steps {
			worst = math.Max(worst, math.Abs(float64(got[r][s]-full[r][p-1+s])))
		}
	}
	t.Logf("max |cached − full| log-prob difference: %.2e", worst)
	if worst > 1e-5 {
		t.Errorf("cached decoding differs from the full forward pass by %.2e", worst)
	}
}

func logSoftmaxAt(l []float32, i int) float32 {
	mx := math.Inf(-1)
	for _, v := range l {
		mx = math.Max(mx, float64(v))
	}
	s := 0.0
	for _, v := range l {
		s += math.Exp(float64(v) - mx)
	}
	return float32(float64(l[i]) - mx - math.Log(s))
}
