package model

import (
	"context"
	"math"
	"testing"
)

// biasedLlama is Llama with attention_bias and mlp_bias.
func biasedLlama() Config {
	c := Small(40)
	c.NumHiddenLayers, c.AttentionBias, c.MLPBias = 1, true, true
	return c
}

// TestDecodeMatchesFullForward feeds tokens through Prefill and Decode and
// compares every step's logits, after log-softmax, with a full forward pass
// over the same sequence: the cache must change speed, not results. It
// runs every architecture variant: Qwen2, Qwen3 (q/k norm, head_dim 16 ≠
// hidden/heads), Llama with o and mlp biases, Llama 3 rope scaling.
func TestDecodeMatchesFullForward(t *testing.T) {
	qwen3 := Tiny(40)
	qwen3.ModelType, qwen3.HeadDim, qwen3.TieWordEmbeddings = "qwen3", 16, true
	rope := Small(40)
	rope.NumHiddenLayers, rope.RopeScaling = 2, &RopeScaling{RopeType: "llama3", Factor: 8, LowFreqFactor: 1, HighFreqFactor: 4, OriginalMaxPositionEmbeddings: 16}
	for name, c := range map[string]Config{"qwen2": Tiny(40), "qwen3": qwen3, "llama biases": biasedLlama(), "llama3 rope": rope} {
		t.Run(name, func(t *testing.T) { decodeMatchesFullForward(t, c) })
	}
}

func decodeMatchesFullForward(t *testing.T, c Config) {
	ctx := context.Background()
	m, err := New(c, 3)
	if err != nil {
		t.Fatal(err)
	}
	randomize(m, 0.3) // fresh norms are ones and biases zeros: make every weight matter
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

// randomize adds uniform noise of the given width to every weight.
func randomize(m *Model, width float32) {
	data := m.ParamData()
	seed := uint32(1)
	for _, d := range data {
		for i := range d {
			seed = seed*1664525 + 1013904223
			d[i] += width * (float32(seed>>8)/float32(1<<24) - 0.5)
		}
	}
	if err := m.SetParamData(data); err != nil {
		panic(err)
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
