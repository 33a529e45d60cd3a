package optim

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/credo-rl/credo/model"
)

// TestNonFiniteUpdateSkipped: an update whose loss and gradient are finite
// but whose new weights are not (issue 14: --lr 3e38 made every weight NaN
// at step 0, with loss and norm finite, and the guard let it through) is
// skipped: weights, moments and the update count stay as they were, on
// the whole batch's fused step and on micro-batches (whose update checks
// first, then writes in place over the donated state).
func TestNonFiniteUpdateSkipped(t *testing.T) {
	for _, tc := range []struct {
		name string
		lr   float64
		opt  func(*AdamW)
		mem  Memory
	}{
		{"lr 3e38", 3e38, func(*AdamW) {}, Memory{}},
		{"weight decay 1e40", 1e-3, func(o *AdamW) { o.WeightDecay = 1e40 }, Memory{}},
		{"micro-batches lr 3e38", 3e38, func(*AdamW) {}, Memory{MicroBatch: 1}},
		{"micro-batches weight decay 1e40", 1e-3, func(o *AdamW) { o.WeightDecay = 1e40 }, Memory{MicroBatch: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := model.New(model.Tiny(260), 7)
			if err != nil {
				t.Fatal(err)
			}
			opt := DefaultAdamW()
			tc.opt(&opt)
			tr, err := NewUpdater(m, opt, CrossEntropy{})
			if err != nil {
				t.Fatal(err)
			}
			if err := tr.SetMemory(tc.mem); err != nil {
				t.Fatal(err)
			}
			seqs := [][]int32{{1, 2, 3, 4, 5, 6}, {7, 8, 9, 10, 11, 12}}
			mask := [][]float32{{1, 1, 1, 1, 1}, {1, 1, 1, 1, 1}}
			before := m.ParamData()
			st, err := tr.Step(context.Background(), seqs, TokenInputs{Mask: mask}, tc.lr)
			if err != nil {
				t.Fatal(err)
			}
			if math.IsNaN(st.Loss) || math.IsNaN(st.GradNorm) {
				t.Fatalf("loss %v, norm %v: the test wants a finite loss and gradient", st.Loss, st.GradNorm)
			}
			if !st.Skipped {
				t.Error("an update to non-finite weights was not skipped")
			}
			after := m.ParamData()
			for i := range before {
				if !slices.Equal(before[i], after[i]) {
					t.Fatalf("tensor %d changed", i)
				}
			}
			mom, vel := tr.OptimizerState()
			for i := range mom {
				for j := range mom[i] {
					if mom[i][j] != 0 || vel[i][j] != 0 {
						t.Fatalf("moment %d changed by a skipped update", i)
					}
				}
			}
			if tr.Steps() != 0 {
				t.Errorf("%d updates counted", tr.Steps())
			}
			// A sane step after it is applied (the decay stays absurd).
			if opt.WeightDecay > 1 {
				return
			}
			if st, err := tr.Step(context.Background(), seqs, TokenInputs{Mask: mask}, 1e-3); err != nil || st.Skipped {
				t.Errorf("a finite update after a skipped one: %+v, %v", st, err)
			}
		})
	}
}
