package optim

import (
	"context"
	"testing"

	"github.com/credo-rl/credo/model"
)

// TestStepsPastTheGraphLimit: a training step's shapes vary with the rows
// dynamic sampling keeps and with the batch's length, and GoMLX refuses
// a shape past an Exec's cache limit. With the limit set to 2, steps of
// 1 to 5 rows at two lengths, whole and in micro-batches of 2, give the
// losses and weights of an updater at the default limit bit for bit, and
// each Exec in use holds at most 2 shapes.
func TestStepsPastTheGraphLimit(t *testing.T) {
	seqs, mask, _ := microBatch(1)
	for _, mem := range []Memory{{}, {MicroBatch: 2}} {
		var losses [2][]float64
		var weights [2][][]float32
		for k, limit := range []int{0, 2} {
			m, err := model.New(model.Tiny(40), 11)
			if err != nil {
				t.Fatal(err)
			}
			u, err := NewUpdater(m, DefaultAdamW(), CrossEntropy{})
			if err != nil {
				t.Fatal(err)
			}
			u.graphs = model.NewGraphs(limit)
			if err := u.SetMemory(mem); err != nil {
				t.Fatal(err)
			}
			for _, long := range []bool{false, true} {
				for rows := 1; rows <= len(seqs); rows++ {
					batch := seqs[:rows]
					if long { // past Bucket's first length: another T
						batch = append([][]int32{append(seqs[0][:len(seqs[0]):len(seqs[0])], make([]int32, 30)...)}, seqs[1:rows]...)
					}
					in := TokenInputs{Mask: make([][]float32, len(batch))}
					for i, s := range batch {
						in.Mask[i] = make([]float32, len(s)-1)
						copy(in.Mask[i], mask[min(i, len(mask)-1)])
					}
					st, err := u.Step(context.Background(), batch, in, 0.01)
					if err != nil {
						t.Fatalf("limit %d, %+v, %d rows: %v", limit, mem, rows, err)
					}
					losses[k] = append(losses[k], st.Loss)
				}
			}
			weights[k] = m.ParamData()
			for _, name := range []string{"step", "grad", "update"} {
				if n := u.graphs.Shapes(name); limit > 0 && n > limit {
					t.Errorf("%+v: the %s Exec holds %d shapes, limit %d", mem, name, n, limit)
				}
			}
		}
		for i := range losses[0] {
			if losses[0][i] != losses[1][i] {
				t.Errorf("%+v, step %d: loss %v at limit 2, %v at the default", mem, i+1, losses[1][i], losses[0][i])
			}
		}
		for i := range weights[0] {
			for j := range weights[0][i] {
				if weights[0][i][j] != weights[1][i][j] {
					t.Fatalf("%+v: weight %d[%d] %v at limit 2, %v at the default", mem, i, j, weights[1][i][j], weights[0][i][j])
				}
			}
		}
	}
}
