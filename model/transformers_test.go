package model_test

import (
	"path/filepath"
	"testing"

	"github.com/credo-rl/credo/internal/reftest"
	"github.com/credo-rl/credo/model"
	"github.com/credo-rl/credo/model/hf"
)

// The fixtures under testdata/transformers were written by
// scripts/transformers_reference.py with transformers' own
// LlamaForCausalLM, Qwen2ForCausalLM and Qwen3ForCausalLM (5.25, torch
// 2.15, float32): each folder is what save_pretrained wrote (config.json
// included, so loading it also tests ParseConfig on transformers' own
// output), beside <name>_expected.safetensors in the format of the
// testdata/reference fixtures, which referencePass reads.
const transformersDir = "testdata/transformers"

// transformersCases are the variants; is says what the folder's config must
// have been parsed into, so a fixture that stopped exercising its variant
// (or a parser that dropped the key) fails by name, not by a logit.
var transformersCases = []struct {
	name string
	is   func(c model.Config) bool
}{
	{"llama", func(c model.Config) bool {
		return c.ModelType == "llama" && !c.AttentionBias && !c.MLPBias && c.RopeScaling == nil
	}},
	{"llama_bias", func(c model.Config) bool { return c.AttentionBias && c.MLPBias }},
	// transformers 4.x's form: rope_scaling and a top-level rope_theta.
	{"llama3_rope_scaling", func(c model.Config) bool { return llama3(c, 8) && c.HeadDim == 8 }},
	// transformers 5's: rope_parameters holding rope_theta; head_dim 16 ≠ 32/4.
	{"llama3_rope_parameters", func(c model.Config) bool { return llama3(c, 32) && c.HeadDim == 16 }},
	{"qwen2", func(c model.Config) bool { return c.ModelType == "qwen2" && !c.TieWordEmbeddings }},
	{"qwen2_tied", func(c model.Config) bool { return c.ModelType == "qwen2" && c.TieWordEmbeddings }},
	{"qwen3", func(c model.Config) bool { return c.ModelType == "qwen3" && c.HeadDim == 16 && !c.TieWordEmbeddings }},
	// Tied, with attention_bias (q, k, v and o biases).
	{"qwen3_tied", func(c model.Config) bool { return c.ModelType == "qwen3" && c.TieWordEmbeddings && c.AttentionBias }},
}

func llama3(c model.Config, factor float64) bool {
	r := c.RopeScaling
	return c.ModelType == "llama" && r != nil && r.RopeType == "llama3" && r.Factor == factor &&
		r.OriginalMaxPositionEmbeddings == 64 && c.RopeTheta == 1e4
}

// Tolerances, relative to max(1, |want|) as reftest.MaxDiff measures:
// float32 rounding of sums taken in a different order than PyTorch's.
const (
	tfTolLoss   = 1e-6
	tfTolValues = 1e-5 // logits, log-probs, gradients
	tfTolFreq   = 1e-6
)

// TestTransformersReference compares credo with transformers on every
// variant: the loss, logits and the gradient of every weight and of the
// input embeddings from one pass (referencePass, as TestReferenceGradients),
// the target log-probs from the inference path (LogProbs) and the rotary
// frequencies, logging one line of maximum differences per variant.
func TestTransformersReference(t *testing.T) {
	for _, tc := range transformersCases {
		t.Run(tc.name, func(t *testing.T) {
			m, err := hf.Load(filepath.Join(transformersDir, tc.name))
			if err != nil {
				t.Fatalf("hf.Load of transformers' own folder: %v", err)
			}
			if !tc.is(m.Config) {
				t.Fatalf("config.json parsed into %+v, which is not the %s variant", m.Config, tc.name)
			}
			fx, err := hf.ReadSafetensors(filepath.Join(transformersDir, tc.name+"_expected.safetensors"))
			if err != nil {
				t.Fatal(err)
			}
			d := compareTransformers(t, m, fx)
			t.Logf("%s: max diff loss %.1e, logits %.1e, log-probs %.1e, weight gradients %.1e (%s), input-embedding gradient %.1e, rope %.1e",
				tc.name, d.loss, d.logits, d.logp, d.grads, d.worstGrad, d.embGrad, d.rope)
			for _, c := range []struct {
				what     string
				got, tol float64
			}{{"loss", d.loss, tfTolLoss}, {"logits", d.logits, tfTolValues}, {"log-probs", d.logp, tfTolValues},
				{"gradient of " + d.worstGrad, d.grads, tfTolValues}, {"input-embedding gradient", d.embGrad, tfTolValues},
				{"rope frequencies", d.rope, tfTolFreq}} {
				if !(c.got <= c.tol) {
					t.Errorf("%s: %s differs from transformers' by %.3e (relative), beyond float32 rounding (%.0e)", tc.name, c.what, c.got, c.tol)
				}
			}
		})
	}
}

// tfDiffs are the maximum relative differences of one variant.
type tfDiffs struct {
	loss, logits, logp, grads, embGrad, rope float64
	worstGrad                                string // the weight whose gradient differs most
}

// compareTransformers measures m against the fixture fx. A tensor missing
// or of another size fails the test at once: that is a fixture or loader
// fault, not a numerical difference.
func compareTransformers(t *testing.T, m *model.Model, fx map[string]hf.Tensor) tfDiffs {
	t.Helper()
	var d tfDiffs
	loss, logits, grads, embGrad := referencePass(t, m, fx)
	d.loss = reftest.RelDiff(t, "loss", loss, fx["loss"].Data)
	d.logits = reftest.RelDiff(t, "logits", logits, fx["logits"].Data)
	d.embGrad = reftest.RelDiff(t, "input-embedding gradient", embGrad, fx["grad.embeddings"].Data)
	for i, p := range m.Specs() {
		want, ok := fx["grad."+p.Name]
		if !ok {
			t.Fatalf("the fixture has no gradient for %s", p.Name)
		}
		if g := reftest.RelDiff(t, "gradient of "+p.Name, grads[i], want.Data); g >= d.grads {
			d.grads, d.worstGrad = g, p.Name
		}
	}
	if n := countPrefix(fx, "grad.model.", "grad.lm_head."); n != len(m.Specs()) {
		t.Fatalf("the fixture has %d weight gradients, the model %d weights", n, len(m.Specs()))
	}
	d.logp = logProbsDiff(t, m, fx)
	var freq []float32
	for _, v := range m.Config.InvFreq() {
		freq = append(freq, float32(v))
	}
	d.rope = reftest.RelDiff(t, "rope frequencies", freq, fx["rope.inv_freq"].Data)
	return d
}

// logProbsDiff compares LogProbs, the path sampling and scoring use, with
// the fixture's target log-probs.
func logProbsDiff(t *testing.T, m *model.Model, fx map[string]hf.Tensor) float64 {
	t.Helper()
	_, got, want := targetLogProbs(t, m, fx)
	return reftest.RelDiff(t, "log-probs", got, want)
}

// TestTransformersRopeScalingMatters guards the two rope fixtures: without
// Llama 3's frequency scaling their logits miss transformers' by far more
// than the tolerance, so they do test it (the gradient check already
// covers the biases, norms and tying: each is a weight of its own).
func TestTransformersRopeScalingMatters(t *testing.T) {
	for _, name := range []string{"llama3_rope_scaling", "llama3_rope_parameters"} {
		t.Run(name, func(t *testing.T) {
			m, err := hf.Load(filepath.Join(transformersDir, name))
			if err != nil {
				t.Fatal(err)
			}
			fx, err := hf.ReadSafetensors(filepath.Join(transformersDir, name+"_expected.safetensors"))
			if err != nil {
				t.Fatal(err)
			}
			plain := m.Config
			plain.RopeScaling = nil
			m2, err := model.FromWeights(plain, m.ParamData(), nil)
			if err != nil {
				t.Fatal(err)
			}
			_, logits, _, _ := referencePass(t, m2, fx)
			d := reftest.RelDiff(t, "logits", logits, fx["logits"].Data)
			t.Logf("%s without rope scaling: max logit difference %.3f", name, d)
			if d < 1e-2 {
				t.Errorf("%s: dropping rope scaling changes the logits by only %.2e", name, d)
			}
		})
	}
}
