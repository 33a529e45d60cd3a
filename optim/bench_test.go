package optim

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/credo-rl/credo/model"
)

// defaultPeakGFLOPS is the float32 peak of this machine class (2 AVX2
// cores of an AMD EPYC), measured by scripts/peak.sh unloaded. Another
// machine states its own through CREDO_PEAK_GFLOPS; scripts/bench.sh
// measures it and sets it.
const defaultPeakGFLOPS = 200

// peakGFLOPS is the float32 peak that MFU is stated against:
// $CREDO_PEAK_GFLOPS if set, else defaultPeakGFLOPS.
func peakGFLOPS(b *testing.B) float64 {
	v := os.Getenv("CREDO_PEAK_GFLOPS")
	if v == "" {
		return defaultPeakGFLOPS
	}
	p, err := strconv.ParseFloat(v, 64)
	if err != nil || p <= 0 {
		b.Fatalf("CREDO_PEAK_GFLOPS=%q: want a positive number of GFLOP/s", v)
	}
	return p
}

// trainFLOPs is the usual 6·N·tokens estimate plus attention's
// 6·L·T²·D·... (forward 2·2·T·T·D per layer per sequence, backward twice that).
func trainFLOPs(c model.Config, B, T int) float64 {
	n := float64(c.NumParams() - c.VocabSize*c.HiddenSize) // the embedding lookup is not a matmul
	if c.TieWordEmbeddings {
		n += float64(c.VocabSize * c.HiddenSize) // but the tied head is
	}
	qOut := c.Params()[2].Shape[0] // the first layer's q_proj.weight [H·E, D]
	attn := 12 * float64(c.NumHiddenLayers) * float64(T) * float64(T) * float64(qOut)
	return (6*n*float64(T) + attn) * float64(B)
}

func benchTrain(b *testing.B, c model.Config, B, T int) {
	timeSteps(b, c, B, T, newBenchStep(b, c, B, T, Memory{}))
}

// newBenchStep builds a model and updater for c and B random sequences of
// T tokens, and returns one training step on them, already run once (the
// first step compiles).
func newBenchStep(b *testing.B, c model.Config, B, T int, mem Memory) func() error {
	m, err := model.New(c, 1)
	if err != nil {
		b.Fatal(err)
	}
	tr, _ := NewUpdater(m, DefaultAdamW(), CrossEntropy{})
	if err := tr.SetMemory(mem); err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	seqs := make([][]int32, B)
	mask := make([][]float32, B)
	for i := range seqs {
		seqs[i] = make([]int32, T) // T tokens, T−1 targets: exactly one bucket
		for j := range seqs[i] {
			seqs[i][j] = int32(rng.IntN(c.VocabSize))
		}
		mask[i] = make([]float32, T-1)
		for j := range mask[i] {
			mask[i][j] = 1
		}
	}
	ctx := context.Background()
	step := func() error {
		_, err := tr.Step(ctx, seqs, TokenInputs{Mask: mask}, 1e-3)
		return err
	}
	if err := step(); err != nil {
		b.Fatal(err)
	}
	return step
}

// timeSteps runs step b.N times and reports wall and CPU time per step,
// throughput and MFU against $CREDO_PEAK_GFLOPS.
func timeSteps(b *testing.B, c model.Config, B, T int, step func() error) {
	peak := peakGFLOPS(b)
	b.ResetTimer()
	cpu0 := cpuSeconds()
	for range b.N {
		if err := step(); err != nil {
			b.Fatal(err)
		}
	}
	// CPU seconds per step, over both cores: steadier than wall time
	// when other work shares the machine.
	b.ReportMetric((cpuSeconds()-cpu0)/float64(b.N), "cpu-s/op")
	sec := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(float64(B*T)/sec, "tokens/s")
	b.ReportMetric(trainFLOPs(c, B, T)/sec/1e9, "GFLOP/s")
	b.ReportMetric(100*trainFLOPs(c, B, T)/sec/(peak*1e9), "MFU%")
}

// BenchmarkTrainStep measures one AdamW step on 16 × 256 tokens. MFU is
// trainFLOPs / seconds / peak, the peak from $CREDO_PEAK_GFLOPS (default
// 200, this machine class's). scripts/bench.sh runs it beside PyTorch.
func BenchmarkTrainStep(b *testing.B) {
	for _, tc := range []struct {
		name string
		c    model.Config
	}{{"1M", model.Small(268)}, {"10M", model.Medium(268)}} {
		b.Run(fmt.Sprintf("%s-%dparams", tc.name, tc.c.NumParams()), func(b *testing.B) { benchTrain(b, tc.c, 16, 256) })
	}
}
