package prm

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"sort"
	"time"

	"github.com/credo-rl/credo/internal/progress"
	"github.com/credo-rl/credo/model"
	"github.com/credo-rl/credo/optim"
)

// fit runs the optimizer over shuffled epochs of the sequences and returns
// the mean loss of the last tenth of the steps.
func (p *PRM) fit(ctx context.Context, c TrainConfig, seqs [][]int32, labels, weights [][]float32, every func(step int) error, log io.Writer) (loss, seconds float64, err error) {
	m, ok := p.Model.(*model.Model)
	if !ok {
		return 0, 0, fmt.Errorf("prm train: the scoring model is a %T, not a *model.Model", p.Model)
	}
	tr, err := optim.NewUpdater(m, c.Optimizer, optim.BinaryCrossEntropy{})
	if err != nil {
		return 0, 0, fmt.Errorf("prm train: %w", err)
	}
	sched := optim.Schedule{Peak: c.LR, WarmupSteps: c.LRWarmup, Steps: c.Steps, MinRatio: c.LRMinRatio}
	rng := rand.New(rand.NewPCG(c.Seed, 0x707274)) // "prt"
	var batches [][]int
	bar := progress.New(log, "prm train", 0, c.Steps)
	defer bar.Done()
	start := time.Now()
	var tokens int
	var tail, tailN, accEMA float64
	loop := optim.Loop{Steps: c.Steps, Report: bar.Update}
	err = loop.Run(ctx, func(ctx context.Context, step int) (optim.Outcome, error) {
		if c.EvalEvery > 0 && step > 0 && step%c.EvalEvery == 0 {
			bar.Done()
			if err := every(step); err != nil {
				return optim.Outcome{}, err
			}
		}
		if len(batches) == 0 {
			batches = sortishBatches(rng, seqs, c.Batch)
		}
		idx := batches[0]
		batches = batches[1:]
		bs := make([][]int32, len(idx))
		by := make([][]float32, len(idx))
		bw := make([][]float32, len(idx))
		for i, j := range idx {
			bs[i], by[i], bw[i] = seqs[j], labels[j], weights[j]
			tokens += len(seqs[j])
		}
		st, err := tr.Step(ctx, bs, optim.TokenInputs{Mask: bw, Label: by}, sched.At(step))
		if err != nil {
			return optim.Outcome{}, fmt.Errorf("prm train step %d: %w", step, err)
		}
		if step >= c.Steps-max(c.Steps/10, 1) {
			tail += st.Loss
			tailN++
		}
		if step == 0 {
			accEMA = st.Metrics["accuracy"]
		}
		accEMA = 0.9*accEMA + 0.1*st.Metrics["accuracy"]
		return optim.Outcome{Skipped: st.Skipped, Summary: fmt.Sprintf("loss %.3f | step acc %.3f | %.0f tok/s", st.Loss, accEMA, float64(tokens)/time.Since(start).Seconds())}, nil
	})
	if err != nil {
		return 0, 0, err
	}
	return tail / tailN, time.Since(start).Seconds(), nil
}

// sortishBatches is one epoch of batches of sequences of similar length:
// shuffle, sort each run of 16 batches' worth by length, cut into
// batches, shuffle the batches. A batch is padded to its longest
// sequence, so this spends the compute on real tokens (arith responses
// run from 48 to 200 tokens) while keeping the order random. A short
// last batch is dropped (the next epoch reshuffles), unless it is the only
// one: every batch has one shape, so no extra graph is compiled.
func sortishBatches(rng *rand.Rand, seqs [][]int32, size int) [][]int {
	order := rng.Perm(len(seqs))
	var out [][]int
	for lo := 0; lo < len(order); lo += 16 * size {
		chunk := order[lo:min(lo+16*size, len(order))]
		sort.SliceStable(chunk, func(a, b int) bool { return len(seqs[chunk[a]]) < len(seqs[chunk[b]]) })
		for b := 0; b < len(chunk); b += size {
			if b+size > len(chunk) && len(out) > 0 {
				break
			}
			out = append(out, chunk[b:min(b+size, len(chunk))])
		}
	}
	rng.Shuffle(len(out), func(a, b int) { out[a], out[b] = out[b], out[a] })
	return out
}
