package model

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
)

// trainFLOPs is the usual 6·N·tokens estimate plus attention's
// 6·L·T²·D·... (forward 2·2·T·T·D per layer per sequence, backward twice that).
func trainFLOPs(c Config, B, T int) float64 {
	n := float64(c.NumParams() - c.VocabSize*c.HiddenSize) // the embedding lookup is not a matmul
	if c.TieWordEmbeddings {
		n += float64(c.VocabSize * c.HiddenSize) // but the tied head is
	}
	attn := 12 * float64(c.NumHiddenLayers) * float64(T) * float64(T) * float64(c.NumAttentionHeads*c.headDim())
	return (6*n*float64(T) + attn) * float64(B)
}

func benchTrain(b *testing.B, c Config, B, T int) {
	m, err := New(c, 1)
	if err != nil {
		b.Fatal(err)
	}
	tr, _ := NewTrainer(m, DefaultAdamW(), CrossEntropy{})
	rng := rand.New(rand.NewPCG(1, 2))
	seqs := make([][]int32, B)
	mask := make([][]float32, B)
	for i := range seqs {
		seqs[i] = make([]int32, T+1)
		for j := range seqs[i] {
			seqs[i][j] = int32(rng.IntN(c.VocabSize))
		}
		mask[i] = make([]float32, T)
		for j := range mask[i] {
			mask[i][j] = 1
		}
	}
	ctx := context.Background()
	if _, err := tr.Step(ctx, seqs, [][][]float32{mask}, 1e-3); err != nil { // compile
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if _, err := tr.Step(ctx, seqs, [][][]float32{mask}, 1e-3); err != nil {
			b.Fatal(err)
		}
	}
	sec := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(float64(B*T)/sec, "tokens/s")
	b.ReportMetric(trainFLOPs(c, B, T)/sec/1e9, "GFLOP/s")
	b.ReportMetric(100*trainFLOPs(c, B, T)/sec/400e9, "MFU%")
}

// BenchmarkTrainStep measures one AdamW step on 16 × 256 tokens. MFU is
// stated against this machine's float32 peak of about 400 GFLOP/s
// (DESIGN.md, "Backend facts").
func BenchmarkTrainStep(b *testing.B) {
	for _, tc := range []struct {
		name string
		c    Config
	}{{"1M", Small(268)}, {"10M", Medium(268)}} {
		b.Run(fmt.Sprintf("%s-%dparams", tc.name, tc.c.NumParams()), func(b *testing.B) { benchTrain(b, tc.c, 16, 256) })
	}
}
