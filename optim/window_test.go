package optim

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/credo-rl/credo/model"
)

func TestTargetWindow(t *testing.T) {
	for _, tc := range []struct {
		name      string
		mask      [][]float32
		full      int
		wantFrom  []int32
		wantWidth int
	}{
		{"every target", [][]float32{{1, 1, 1}, {1, 1}}, 15, []int32{0, 0}, 3},
		{"prompts masked", [][]float32{{0, 0, 0, 1, 1}, {0, 1, 1, 1, 0}}, 15, []int32{3, 1}, 3},
		{"span rounded up by RowBucket", [][]float32{{0, 1, 1, 1, 1, 1}}, 15, []int32{1}, 6},
		{"window kept inside the batch", [][]float32{{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1}, {1, 0, 0, 0, 1}}, 15, []int32{9, 0}, 6},
		{"capped at the full width", [][]float32{{1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}}, 15, []int32{0}, 15},
		{"a row with no target starts at 0", [][]float32{{0, 0, 0}, {0, 0, 1}}, 15, []int32{0, 2}, 1},
		{"no target at all", [][]float32{{0, 0}}, 15, []int32{0}, 1},
		{"fractional weights count", [][]float32{{0, 0.5, 0}}, 15, []int32{1}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			from, w := targetWindow(tc.mask, tc.full)
			if w != tc.wantWidth || !slices.Equal(from, tc.wantFrom) {
				t.Errorf("targetWindow = %v, %d; want %v, %d", from, w, tc.wantFrom, tc.wantWidth)
			}
			for i, row := range tc.mask { // every weighted target is in its row's window
				for k, x := range row {
					if x != 0 && (k < int(from[i]) || k >= int(from[i])+w) {
						t.Errorf("row %d: target %d (weight %v) outside [%d, %d)", i, k, x, from[i], int(from[i])+w)
					}
				}
				if int(from[i])+w > tc.full {
					t.Errorf("row %d: window [%d, %d) past the %d targets", i, from[i], int(from[i])+w, tc.full)
				}
			}
		})
	}
}

// TestWindowedLossMatchesLogProbs: with prompts masked out, the update
// computes the head only in the masked-in window; its loss must still be
// −Σ mask·log p / Σ mask with the log-probs of the model's own full
// forward (LogProbs), and its gradient that of the same loss computed
// over every position. The second batch forces the full window by
// weighing each row's first and last target by 1e-30, which leaves the
// loss and gradient unchanged in float32; micro-batches of 1 give each
// sequence its own window.
func TestWindowedLossMatchesLogProbs(t *testing.T) {
	c := model.Tiny(40)
	lens := []int{12, 30, 7, 21}
	prompt := []int{5, 20, 3, 2}
	seqs := make([][]int32, len(lens))
	narrow, wide := make([][]float32, len(lens)), make([][]float32, len(lens))
	for i, n := range lens {
		seqs[i] = make([]int32, n)
		for j := range seqs[i] {
			seqs[i][j] = int32(1 + (5*i+3*j*j+j)%37)
		}
		narrow[i], wide[i] = make([]float32, n-1), make([]float32, n-1)
		for k := prompt[i] - 1; k < n-1; k++ { // target k predicts token k+1: the response's
			narrow[i][k], wide[i][k] = 1, 1
		}
		wide[i][0] = max(wide[i][0], 1e-30)
	}
	if _, w := targetWindow(narrow, model.Bucket(30)-1); w >= model.Bucket(30)-1 {
		t.Fatalf("the narrow batch's window is %d wide: the test does not exercise a window", w)
	}

	m, err := model.New(c, 11)
	if err != nil {
		t.Fatal(err)
	}
	lp, err := m.LogProbs(context.Background(), seqs)
	if err != nil {
		t.Fatal(err)
	}
	sum, n := 0.0, 0.0
	for i := range seqs {
		for k, x := range narrow[i] {
			sum += float64(x) * float64(lp[i][k])
			n += float64(x)
		}
	}
	want := -sum / n

	for _, mem := range []Memory{{}, {MicroBatch: 1}} {
		stN, wN := stepN(t, 1, c, CrossEntropy{}, mem, seqs, TokenInputs{Mask: narrow})
		stW, wW := stepN(t, 1, c, CrossEntropy{}, mem, seqs, TokenInputs{Mask: wide})
		if !near(stN[0].Loss, want, 1e-5) {
			t.Errorf("micro-batch %d: windowed loss %.7f, want %.7f from LogProbs (diff %.2g)", mem.MicroBatch, stN[0].Loss, want, stN[0].Loss-want)
		}
		if !near(stN[0].Loss, stW[0].Loss, 1e-5) || !near(stN[0].GradNorm, stW[0].GradNorm, 1e-4) {
			t.Errorf("micro-batch %d: windowed loss %v grad norm %v; full window %v, %v", mem.MicroBatch, stN[0].Loss, stN[0].GradNorm, stW[0].Loss, stW[0].GradNorm)
		}
		maxDiff := 0.0
		for p := range wN {
			for j := range wN[p] {
				maxDiff = max(maxDiff, math.Abs(float64(wN[p][j]-wW[p][j])))
			}
		}
		if maxDiff > 1e-5 {
			t.Errorf("micro-batch %d: weights after the windowed and full-window updates differ by up to %.3g", mem.MicroBatch, maxDiff)
		}
		t.Logf("micro-batch %d: loss %.7f (LogProbs %.7f), weights differ by at most %.3g", mem.MicroBatch, stN[0].Loss, want, maxDiff)
	}
}
