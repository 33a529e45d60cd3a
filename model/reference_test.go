package model_test

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/credo-rl/credo/internal/reftest"
	"github.com/credo-rl/credo/model"
	"github.com/credo-rl/credo/model/hf"
	"github.com/credo-rl/credo/optim"
	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive
	"github.com/gomlx/gomlx/core/tensors"
)

// The fixtures under testdata/reference were written once by
// scripts/reference.py (PyTorch 1.13, float32) from the same weights. The
// tests read them through model/hf, so they are model's external tests.

func loadFixture(t *testing.T, name string) map[string]hf.Tensor {
	t.Helper()
	fx, err := hf.ReadSafetensors(filepath.Join("testdata", "reference", name))
	if err != nil {
		t.Fatal(err)
	}
	return fx
}

// lmCases are the language-model fixtures: Qwen2 (q/k/v bias, untied),
// Qwen3 (q/k norm, head_dim 16 ≠ hidden/heads, tied), Llama with
// attention_bias and mlp_bias, Llama with Llama 3's rope_scaling.
var lmCases = []string{"lm", "qwen3", "llama_bias", "llama3_rope"}

func TestReferenceLogProbs(t *testing.T) {
	for _, name := range lmCases {
		t.Run(name, func(t *testing.T) {
			m, err := hf.Load(filepath.Join("testdata", "reference", name))
			if err != nil {
				t.Fatal(err)
			}
			fx := loadFixture(t, name+"_expected.safetensors")
			seqs, got, want := targetLogProbs(t, m, fx)
			reftest.MaxDiff(t, "log-probs of targets", got, want, 1e-5)

			// Distributions: softmax of the reference logits at every position.
			from := make([]int, len(seqs))
			for i := range from {
				from[i] = 1
			}
			dist, err := m.Distributions(context.Background(), seqs, from)
			if err != nil {
				t.Fatal(err)
			}
			V, T := m.Config.VocabSize, fx["tokens"].Shape[1]-1
			got, want = nil, nil
			for i, rows := range dist {
				for tpos, p := range rows {
					got = append(got, p...)
					logits := fx["logits"].Data[(i*T+tpos)*V : (i*T+tpos+1)*V]
					want = append(want, softmax(logits)...)
				}
			}
			reftest.MaxDiff(t, "next-token distributions", got, want, 1e-6)
		})
	}
}

func softmax(x []float32) []float32 {
	mx := math.Inf(-1)
	for _, v := range x {
		mx = math.Max(mx, float64(v))
	}
	sum := 0.0
	out := make([]float32, len(x))
	for i, v := range x {
		e := math.Exp(float64(v) - mx)
		out[i], sum = float32(e), sum+e
	}
	for i := range out {
		out[i] = float32(float64(out[i]) / sum)
	}
	return out
}

// referencePass runs the fixture's loss (masked mean NLL over its padded
// tokens) and returns the loss, the logits, every weight's gradient (in
// Specs order) and the gradient with respect to the input embeddings.
func referencePass(t *testing.T, m *model.Model, fx map[string]hf.Tensor) (loss, logits []float32, grads [][]float32, embGrad []float32) {
	t.Helper()
	tok := fx["tokens"]
	B, T := tok.Shape[0], tok.Shape[1]
	tokens := make([][]int32, B)
	for i := range B {
		for j := range T {
			tokens[i] = append(tokens[i], int32(tok.Data[i*T+j]))
		}
	}
	maskRows := make([][]float32, B)
	for i := range B {
		maskRows[i] = fx["mask"].Data[i*(T-1) : (i+1)*(T-1)]
	}
	np := len(m.Specs())
	e, err := NewExec(m.Backend(), func(inputs []*Node) []*Node {
		tk, mask := inputs[np], inputs[np+1]
		in := Slice(tk, AxisRange(), AxisRange(0, T-1))
		tgt := Slice(tk, AxisRange(), AxisRange(1, T))
		x, logits := m.Logits(inputs[:np], in)
		logp := ReduceSum(Mul(LogSoftmax(logits, -1), OneHot(tgt, m.Config.VocabSize, dtypes.Float32)), -1)
		loss, _ := optim.CrossEntropy{}.Loss(logp, nil, optim.TokenNodes{Mask: mask, Tokens: ReduceAllSum(mask)})
		grads := Gradient(loss, append(append([]*Node{}, inputs[:np]...), x)...)
		return append([]*Node{loss, logits}, grads...)
	})
	if err != nil {
		t.Fatal(err)
	}
	var args []any
	for _, w := range m.Weights() {
		args = append(args, w)
	}
	out, err := e.Call(append(args, tokens, maskRows)...)
	if err != nil {
		t.Fatal(err)
	}
	flat := func(x *tensors.Tensor) []float32 { return tensors.MustCopyFlatData[float32](x) }
	for _, g := range out[2 : 2+np] {
		grads = append(grads, flat(g))
	}
	return flat(out[0]), flat(out[1]), grads, flat(out[2+np])
}

// TestReferenceGradients checks the loss, logits, the gradient of every
// parameter and the gradient with respect to the input embeddings.
func TestReferenceGradients(t *testing.T) {
	for _, name := range lmCases {
		t.Run(name, func(t *testing.T) {
			m, err := hf.Load(filepath.Join("testdata", "reference", name))
			if err != nil {
				t.Fatal(err)
			}
			fx := loadFixture(t, name+"_expected.safetensors")
			loss, logits, grads, embGrad := referencePass(t, m, fx)
			reftest.MaxDiff(t, "loss", loss, fx["loss"].Data, 1e-6)
			reftest.MaxDiff(t, "logits", logits, fx["logits"].Data, 1e-5)
			seen := 0
			for i, p := range m.Specs() {
				want, ok := fx["grad."+p.Name]
				if !ok {
					t.Errorf("the fixture has no gradient for %s", p.Name)
					continue
				}
				seen++
				reftest.MaxDiff(t, "grad "+p.Name, grads[i], want.Data, 1e-5)
			}
			if n := countPrefix(fx, "grad.model.", "grad.lm_head."); n != seen {
				t.Errorf("the fixture has %d weight gradients, the model %d weights", n, seen)
			}
			reftest.MaxDiff(t, "grad input embeddings", embGrad, fx["grad.embeddings"].Data, 1e-5)
		})
	}
}

func countPrefix(fx map[string]hf.Tensor, prefixes ...string) int {
	n := 0
	for k := range fx {
		for _, p := range prefixes {
			if strings.HasPrefix(k, p) {
				n++
			}
		}
	}
	return n
}

// TestReferenceRopeFrequencies compares the rotary frequencies with
// transformers' default and llama3 computations.
func TestReferenceRopeFrequencies(t *testing.T) {
	for _, name := range lmCases[1:] {
		m, err := hf.Load(filepath.Join("testdata", "reference", name))
		if err != nil {
			t.Fatal(err)
		}
		var got []float32
		for _, v := range m.Config.InvFreq() {
			got = append(got, float32(v))
		}
		want := loadFixture(t, name+"_expected.safetensors")["rope.inv_freq"].Data
		reftest.MaxDiff(t, name+" rope frequencies", got, want, 1e-6)
	}
}

// TestReferenceVariantsMatter shows the fixtures check the variants: without
// Llama's o and mlp biases (what credo computed before it had them), or
// without Llama 3's frequency scaling, the logits miss the reference by far
// more than the tolerance.
func TestReferenceVariantsMatter(t *testing.T) {
	worst := func(a, b []float32) float64 {
		d := 0.0
		for i := range a {
			d = math.Max(d, math.Abs(float64(a[i]-b[i])))
		}
		return d
	}
	m, err := hf.Load(filepath.Join("testdata", "reference", "llama_bias"))
	if err != nil {
		t.Fatal(err)
	}
	fx := loadFixture(t, "llama_bias_expected.safetensors")
	data := m.ParamData()
	for i, p := range m.Specs() {
		if strings.HasSuffix(p.Name, "o_proj.bias") || strings.Contains(p.Name, "mlp.") && strings.HasSuffix(p.Name, ".bias") {
			clear(data[i])
		}
	}
	if err := m.SetParamData(data); err != nil {
		t.Fatal(err)
	}
	_, logits, _, _ := referencePass(t, m, fx)
	d := worst(logits, fx["logits"].Data)
	t.Logf("llama without o and mlp biases: max logit difference %.3f", d)
	if d < 0.1 {
		t.Errorf("dropping the o and mlp biases changes the logits by only %.2e", d)
	}

	m, err = hf.Load(filepath.Join("testdata", "reference", "llama3_rope"))
	if err != nil {
		t.Fatal(err)
	}
	fx = loadFixture(t, "llama3_rope_expected.safetensors")
	plain := m.Config
	plain.RopeScaling = nil
	m2, err := model.FromWeights(plain, m.ParamData(), nil)
	if err != nil {
		t.Fatal(err)
	}
	_, logits, _, _ = referencePass(t, m2, fx)
	d = worst(logits, fx["logits"].Data)
	t.Logf("llama3 rope without scaling: max logit difference %.3f", d)
	if d < 1e-2 {
		t.Errorf("dropping llama3 rope scaling changes the logits by only %.2e", d)
	}
}

// TestReferenceEmbeddingGradient checks the scoring head's score and
// ∂S/∂e with S = Σ sel · score, as the gradient method uses it.
func TestReferenceEmbeddingGradient(t *testing.T) {
	m, err := hf.Load(filepath.Join("testdata", "reference", "prm"))
	if err != nil {
		t.Fatal(err)
	}
	fx := loadFixture(t, "prm_expected.safetensors")
	tok := fx["tokens"]
	B, T := tok.Shape[0], tok.Shape[1]
	seqs := make([][]int32, B)
	sel := make([][]float32, B)
	for i := range B {
		for j := range T {
			seqs[i] = append(seqs[i], int32(tok.Data[i*T+j]))
		}
		sel[i] = fx["sel"].Data[i*T : (i+1)*T]
	}
	scores, emb, grad, err := m.EmbeddingGradient(context.Background(), seqs, sel)
	if err != nil {
		t.Fatal(err)
	}
	var fs, fe, fg []float32
	for i := range seqs {
		fs = append(fs, scores[i]...)
		for tpos := range seqs[i] {
			fe = append(fe, emb[i][tpos]...)
			fg = append(fg, grad[i][tpos]...)
		}
	}
	reftest.MaxDiff(t, "scores", fs, fx["score"].Data, 1e-5)
	reftest.MaxDiff(t, "input embeddings", fe, fx["embeddings"].Data, 0)
	reftest.MaxDiff(t, "dS/d(embeddings)", fg, fx["grad"].Data, 1e-5)
	s2, err := m.Scores(context.Background(), seqs)
	if err != nil {
		t.Fatal(err)
	}
	fs = fs[:0]
	for _, r := range s2 {
		fs = append(fs, r...)
	}
	reftest.MaxDiff(t, "Scores", fs, fx["score"].Data, 1e-5)
}

// targetLogProbs runs a fixture's sequences (unpadded) through LogProbs,
// the path sampling and scoring use, and returns them with each target's
// log-probability flat beside the fixture's ("logp").
func targetLogProbs(t *testing.T, m *model.Model, fx map[string]hf.Tensor) (seqs [][]int32, got, want []float32) {
	t.Helper()
	seqs, _ = reftest.Tokens(fx["tokens"].Data, fx["tokens"].Shape, fx["lengths"].Data)
	lp, err := m.LogProbs(context.Background(), seqs)
	if err != nil {
		t.Fatal(err)
	}
	T := fx["tokens"].Shape[1] - 1
	for i, row := range lp {
		got = append(got, row...)
		want = append(want, fx["logp"].Data[i*T:i*T+len(row)]...)
	}
	return seqs, got, want
}
