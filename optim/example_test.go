package optim_test

import (
	"context"
	"fmt"
	"math"

	"github.com/credo-rl/credo/model"
	"github.com/credo-rl/credo/optim"
)

// A few AdamW steps on one sequence raise its likelihood: the updater
// minimizes the objective (here the masked cross-entropy of warm-up).
func ExampleNewUpdater() {
	ctx := context.Background()
	m, _ := model.New(model.Tiny(40), 1)
	tr, err := optim.NewUpdater(m, optim.DefaultAdamW(), optim.CrossEntropy{})
	if err != nil {
		panic(err)
	}
	seqs := [][]int32{{1, 7, 7, 7, 7, 7}}
	in := optim.TokenInputs{Mask: [][]float32{{1, 1, 1, 1, 1}}} // one value per target token
	var first, last float64
	for i := range 5 {
		st, err := tr.Step(ctx, seqs, in, 1e-2)
		if err != nil {
			panic(err)
		}
		if i == 0 {
			first = st.Loss
		}
		last = st.Loss
	}
	fmt.Println(tr.Steps(), last < first)
	// Output: 5 true
}

// A schedule warms the learning rate up linearly, then decays it along a
// cosine to MinRatio of the peak.
func ExampleSchedule_At() {
	s := optim.Schedule{Peak: 1e-3, WarmupSteps: 2, Steps: 6, MinRatio: 0.1}
	for step := range 7 {
		fmt.Printf("%.6f ", s.At(step))
	}
	fmt.Println()
	// Output: 0.000500 0.001000 0.001000 0.000868 0.000550 0.000232 0.000100
}

// SetMemory splits a step's batch into micro-batches whose gradients are
// summed before the one update: the loss and the update are the whole
// batch's. Targets scores the next tokens without a [B, T, V] table.
func ExampleUpdater_SetMemory() {
	ctx := context.Background()
	seqs := [][]int32{{1, 2, 3, 4, 5, 6}, {7, 8, 9}, {10, 11, 12, 13}}
	in := optim.TokenInputs{Mask: [][]float32{{0, 0, 1, 1, 1}, {1, 1}, {1, 1, 1}}}
	loss := func(mem optim.Memory) float64 {
		m, _ := model.New(model.Tiny(40), 1)
		tr, _ := optim.NewUpdater(m, optim.DefaultAdamW(), optim.CrossEntropy{})
		if err := tr.SetMemory(mem); err != nil {
			panic(err)
		}
		st, err := tr.Step(ctx, seqs, in, 1e-2)
		if err != nil {
			panic(err)
		}
		return st.Loss
	}
	whole, micro := loss(optim.Memory{}), loss(optim.Memory{MicroBatch: 1})
	fmt.Println(math.Abs(whole-micro) < 1e-5)
	m, _ := model.New(model.Tiny(40), 1)
	logp, greedy, _ := m.Targets(ctx, seqs)
	fmt.Println(len(logp[0]), len(greedy[1]))
	// Output:
	// true
	// 5 2
}
