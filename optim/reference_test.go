package optim

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/credo-rl/credo/internal/reftest"
	"github.com/credo-rl/credo/model/hf"
)

// fixtures are model's PyTorch reference fixtures (scripts/reference.py),
// which also hold the losses of a few AdamW steps on the "lm" model.
var fixtures = filepath.Join("..", "model", "testdata", "reference")

// TestReferenceAdamW pins the first five losses of a training run (llm.c's
// test): AdamW with decoupled decay on matrices, betas (0.9, 0.95),
// global-norm clipping at 1, learning rate 1e-2.
func TestReferenceAdamW(t *testing.T) {
	m, err := hf.Load(filepath.Join(fixtures, "lm"))
	if err != nil {
		t.Fatal(err)
	}
	fx, err := hf.ReadSafetensors(filepath.Join(fixtures, "lm_expected.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	seqs, mask := reftest.Tokens(fx["tokens"].Data, fx["tokens"].Shape, fx["lengths"].Data)
	tr, err := NewUpdater(m, DefaultAdamW(), CrossEntropy{})
	if err != nil {
		t.Fatal(err)
	}
	var losses, norms []float32
	for range 5 {
		st, err := tr.Step(context.Background(), seqs, TokenInputs{Mask: mask}, 1e-2)
		if err != nil {
			t.Fatal(err)
		}
		if st.Skipped {
			t.Fatal("a finite step was skipped")
		}
		losses = append(losses, float32(st.Loss))
		norms = append(norms, float32(st.GradNorm))
	}
	reftest.MaxDiff(t, "AdamW losses (5 steps)", losses, fx["adamw.losses"].Data, 1e-5)
	reftest.MaxDiff(t, "AdamW gradient norms (5 steps)", norms, fx["adamw.grad_norms"].Data, 1e-5)
	if tr.Steps() != 5 {
		t.Errorf("Steps() = %d, want 5", tr.Steps())
	}
}
