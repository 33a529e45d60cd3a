package optim

import (
	"context"
	"math"
	"testing"

	"github.com/credo-rl/credo/model"
)

// microBatch is a batch whose micro-batches of 2 have very different
// token counts (4 + 5, 19 + 1, 7), so averaging per micro-batch instead
// of normalizing by the whole batch's totals gives another loss.
func microBatch(shift int) ([][]int32, [][]float32, [][]float32) {
	lens := []int{5, 6, 20, 2, 8}
	seqs := make([][]int32, len(lens))
	mask, label := make([][]float32, len(lens)), make([][]float32, len(lens))
	for i, n := range lens {
		seqs[i] = make([]int32, n)
		mask[i], label[i] = make([]float32, n-shift), make([]float32, n-shift)
		for j := range seqs[i] {
			seqs[i][j] = int32(1 + (7*i+3*j*j)%37)
		}
		for j := range mask[i] {
			mask[i][j] = 1
			label[i][j] = float32((i + j) % 2)
		}
	}
	return seqs, mask, label
}

// stepN runs n updates of a model of config c and returns their stats
// and the weights after.
func stepN(t *testing.T, n int, c model.Config, obj Objective, mem Memory, seqs [][]int32, in TokenInputs) ([]StepStats, [][]float32) {
	t.Helper()
	m, err := model.New(c, 11)
	if err != nil {
		t.Fatal(err)
	}
	opt := DefaultAdamW()
	opt.Eps = 1 // the update is then about lr·g: it shows the gradient's scale, which Adam's first steps normalize away
	tr, err := NewUpdater(m, opt, obj)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.SetMemory(mem); err != nil {
		t.Fatal(err)
	}
	var sts []StepStats
	for range n {
		st, err := tr.Step(context.Background(), seqs, in, 0.05)
		if err != nil || st.Skipped {
			t.Fatalf("step: %v (skipped %v)", err, st.Skipped)
		}
		sts = append(sts, st)
	}
	return sts, m.ParamData()
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol*(1+math.Abs(b)) }

// TestMicroBatchesEqualWholeBatch: an update from micro-batches of 1, 2
// and 3 sequences (accumulated gradients) gives the whole batch's loss,
// gradient norm, metrics and weights to float32 rounding, for a language
// model's and a scoring model's objective; and the batch is one where
// averaging per micro-batch would give another loss.
func TestMicroBatchesEqualWholeBatch(t *testing.T) {
	lm, score := model.Tiny(40), model.Tiny(40)
	score.NumLabels = 1
	for _, tc := range []struct {
		name  string
		c     model.Config
		obj   Objective
		shift int
	}{
		{"cross-entropy", lm, CrossEntropy{}, 1},
		{"binary cross-entropy", score, BinaryCrossEntropy{}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			seqs, mask, label := microBatch(tc.shift)
			in := TokenInputs{Mask: mask}
			if tc.obj.Inputs()&FieldLabel != 0 {
				in.Label = label
			}
			want, wantW := stepN(t, 2, tc.c, tc.obj, Memory{}, seqs, in)
			for _, rows := range []int{1, 2, 3} {
				got, gotW := stepN(t, 2, tc.c, tc.obj, Memory{MicroBatch: rows}, seqs, in)
				for s := range want {
					if !near(got[s].Loss, want[s].Loss, 1e-5) || !near(got[s].GradNorm, want[s].GradNorm, 1e-5) {
						t.Errorf("%d rows, step %d: loss %v norm %v, whole batch %v %v", rows, s+1, got[s].Loss, got[s].GradNorm, want[s].Loss, want[s].GradNorm)
					}
					for k, v := range want[s].Metrics {
						if !near(got[s].Metrics[k], v, 1e-5) {
							t.Errorf("%d rows, step %d: metric %s %v, whole batch %v", rows, s+1, k, got[s].Metrics[k], v)
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
			// The weighting mistake: each micro-batch of 2 normalized by its
			// own tokens, then averaged. With ε = 1 one update moves the
			// weights by about −lr·g (and the same decay), so the mistake's
			// weights are the mean of the micro-batches' own updates; they
			// are far from the whole batch's.
			_, once := stepN(t, 1, tc.c, tc.obj, Memory{}, seqs, in)
			parts := [][2]int{{0, 2}, {2, 4}, {4, 5}}
			mistake := make([][]float32, len(once))
			for _, p := range parts {
				_, w := stepN(t, 1, tc.c, tc.obj, Memory{}, seqs[p[0]:p[1]], in.rows(p[0], p[1]))
				for i := range w {
					if mistake[i] == nil {
						mistake[i] = make([]float32, len(w[i]))
					}
					for j := range w[i] {
						mistake[i][j] += w[i][j] / float32(len(parts))
					}
				}
			}
			worst := 0.0
			for i := range once {
				for j := range once[i] {
					worst = max(worst, math.Abs(float64(mistake[i][j]-once[i][j])))
				}
			}
			if worst < 1e-4 {
				t.Errorf("per-micro-batch averaging moves the weights at most %g from the whole batch's update: the batch cannot tell them apart", worst)
			}
		})
	}
}

// TestMicroRows: the override wins, no budget runs the batch whole, and a
// budget gives as many sequences as StepBytes says fit beside the weights,
// gradient and AdamW moments (16 bytes a parameter), at least one.
func TestMicroRows(t *testing.T) {
	c := model.Tiny(40)
	seqs := [][]int32{make([]int32, 20), make([]int32, 3), make([]int32, 7), make([]int32, 9)}
	per := Bytes(c.StepBytes(32)) // 20 tokens pad to 32
	static := Bytes(16 * c.NumParams())
	for _, tc := range []struct {
		name string
		mem  Memory
		want int
	}{
		{"no budget", Memory{}, 4},
		{"override", Memory{Budget: 1, MicroBatch: 3}, 3},
		{"two fit", Memory{Budget: static + 2*per + per/2}, 2},
		{"static counted", Memory{Budget: 2*per + per/2}, max(1, int((2*per+per/2-static)/per))},
		{"too small", Memory{Budget: per / 2}, 1},
		{"all fit", Memory{Budget: static + 100*per}, 100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, _ := model.New(c, 1)
			tr, _ := NewUpdater(m, DefaultAdamW(), CrossEntropy{})
			if err := tr.SetMemory(tc.mem); err != nil {
				t.Fatal(err)
			}
			if got := tr.microRows(seqs); got != tc.want {
				t.Errorf("microRows = %d, want %d", got, tc.want)
			}
		})
	}
	m, _ := model.New(c, 1)
	tr, _ := NewUpdater(m, DefaultAdamW(), CrossEntropy{})
	if err := tr.SetMemory(Memory{Budget: -1}); err == nil {
		t.Error("a negative budget was accepted")
	}
}

// TestParseBytes: sizes with binary units parse, print back, and a
// negative or unitless-garbage size is refused.
func TestParseBytes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Bytes
		str  string
	}{
		{"4GiB", 4 << 30, "4GiB"},
		{"512MiB", 512 << 20, "512MiB"},
		{"1.5GiB", 3 << 29, "1536MiB"},
		{"2gb", 2 << 30, "2GiB"},
		{"0", 0, "0"},
		{"1000", 1000, "1000"},
	} {
		got, err := ParseBytes(tc.in)
		if err != nil || got != tc.want || got.String() != tc.str {
			t.Errorf("ParseBytes(%q) = %v (%q), %v; want %d (%q)", tc.in, int64(got), got.String(), err, tc.want, tc.str)
		}
	}
	for _, bad := range []string{"-1GiB", "lots", "GiB", "1e30GiB"} {
		if _, err := ParseBytes(bad); err == nil {
			t.Errorf("ParseBytes(%q) accepted", bad)
		}
	}
}

// TestBackendReleasesBuffers: the Go backend offers the capability
// releaseBuffers looks for; without it a 135M step's heap doubles
// (docs/performance.md) and nothing else would say so.
func TestBackendReleasesBuffers(t *testing.T) {
	m, err := model.New(model.Tiny(40), 1)
	if err != nil {
		t.Fatal(err)
	}
	if m.BackendInfo().Name != "go" {
		t.Skipf("backend %q", m.BackendInfo().Name)
	}
	if _, ok := m.Backend().(interface{ ReleaseBuffers() }); !ok {
		t.Errorf("the Go backend (%T) has no ReleaseBuffers", m.Backend())
	}
}
