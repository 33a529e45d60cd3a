package rl

import (
	"context"
	"math"
	"testing"

	"github.com/credo-rl/credo/model"
	"github.com/credo-rl/credo/optim"
)

// TestLossMicroBatches: the policy loss of every aggregation gives the
// same loss, gradient norm, metrics and weights from micro-batches of 1
// and 2 sequences as from the whole batch, on a batch whose rows have 0 to
// 9 response tokens (one row has none, which seq-mean-token-mean must not
// count) and whose advantages and log-probs differ per token.
func TestLossMicroBatches(t *testing.T) {
	lens := []int{6, 12, 4, 9, 7}
	resp := []int{3, 9, 0, 5, 1} // response tokens at the end of each row
	seqs := make([][]int32, len(lens))
	var in optim.TokenInputs
	for i, n := range lens {
		seqs[i] = make([]int32, n)
		for j := range seqs[i] {
			seqs[i][j] = int32(1 + (5*i+j*j)%29)
		}
		mask, adv, old, ref := make([]float32, n-1), make([]float32, n-1), make([]float32, n-1), make([]float32, n-1)
		for k := n - 1 - resp[i]; k < n-1; k++ {
			mask[k] = 1
			adv[k] = float32(math.Sin(float64(3*i+k))) * 2
			old[k] = -3.4 + 0.3*float32(math.Cos(float64(i+k)))
			ref[k] = -3.4 + 0.2*float32(math.Sin(float64(i*k)))
		}
		in.Mask, in.Advantage = append(in.Mask, mask), append(in.Advantage, adv)
		in.OldLogP, in.RefLogP = append(in.OldLogP, old), append(in.RefLogP, ref)
	}
	run := func(t *testing.T, loss Loss, mem optim.Memory) ([]optim.StepStats, [][]float32) {
		m, err := model.New(model.Tiny(30), 3)
		if err != nil {
			t.Fatal(err)
		}
		opt := optim.DefaultAdamW()
		opt.Eps = 1 // the update shows the gradient's scale
		tr, err := optim.NewUpdater(m, opt, loss)
		if err != nil {
			t.Fatal(err)
		}
		if err := tr.SetMemory(mem); err != nil {
			t.Fatal(err)
		}
		var sts []optim.StepStats
		for range 2 {
			st, err := tr.Step(context.Background(), seqs, in, 0.05)
			if err != nil || st.Skipped {
				t.Fatalf("step: %v (skipped %v)", err, st.Skipped)
			}
			sts = append(sts, st)
		}
		return sts, m.ParamData()
	}
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-5*(1+math.Abs(b)) }
	for _, agg := range []string{AggTokenMean, AggSeqMeanTokenMean, AggSeqMeanTokenSumNorm} {
		t.Run(agg, func(t *testing.T) {
			loss := Loss{ClipLow: 0.2, ClipHigh: 0.28, KLBeta: 0.05, Agg: agg, MaxTokens: 12}
			want, wantW := run(t, loss, optim.Memory{})
			for _, rows := range []int{1, 2} {
				got, gotW := run(t, loss, optim.Memory{MicroBatch: rows})
				for s := range want {
					if !near(got[s].Loss, want[s].Loss) || !near(got[s].GradNorm, want[s].GradNorm) {
						t.Errorf("%d rows, step %d: loss %v norm %v, whole batch %v %v", rows, s+1, got[s].Loss, got[s].GradNorm, want[s].Loss, want[s].GradNorm)
					}
					for k, v := range want[s].Metrics {
						if !near(got[s].Metrics[k], v) {
							t.Errorf("%d rows, step %d: %s %v, whole batch %v", rows, s+1, k, got[s].Metrics[k], v)
						}
					}
				}
				for i := range wantW {
					for j := range wantW[i] {
						if d := math.Abs(float64(gotW[i][j] - wantW[i][j])); d > 1e-6 {
							t.Fatalf("%d rows: weight %d[%d] %v, whole batch %v", rows, i, j, gotW[i][j], wantW[i][j])
						}
					}
				}
			}
		})
	}
}
