package model

import (
	"context"
	"fmt"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive
	"github.com/gomlx/gomlx/core/tensors"
)

// The scoring head's forward functions (num_labels > 0, label 0 read):
// what the process reward model and the gradient method need.

// Scores runs the scoring head: out[i][t] is label 0's logit at token t.
func (m *Model) Scores(ctx context.Context, seqs [][]int32) ([][]float32, error) {
	if err := m.ready(ctx, "scores", scoreHead, seqs, nil); err != nil {
		return nil, err
	}
	pad, T := m.padded(seqs)
	out, err := m.run("scores", "scores", func(w *weights, in []*Node) []*Node {
		return []*Node{m.scores(w, embedTokens(w, in[0]), in[0])}
	}, pad)
	if err != nil {
		return nil, err
	}
	return spans(out[0], T, lengths(seqs, 0)), nil
}

// scores is the scoring head's label-0 logit [B, T] of input embeddings x
// [B, T, D]; tokens [B, T] give only the shape of the positions.
func (m *Model) scores(w *weights, x, tokens *Node) *Node {
	h := forward(m.Config, w, x, sequenceInputs(m.Config, tokens), nil)
	return labelZero(headLogits(w, h)) // [B, T]
}

// labelZero picks label 0 of a scoring head's logits: [B, T, labels] → [B, T].
func labelZero(logits *Node) *Node {
	return Squeeze(Slice(logits, AxisRange(), AxisRange(), AxisRange(0, 1)), -1)
}

// EmbeddingGradient scores sequences with the model's scoring head
// (num_labels > 0, label 0) and differentiates the weighted sum of scores
// S = Σ_{i,t} sel[i][t] · score[i][t] with respect to the input embeddings
// in one backward pass. It returns the scores [N][T_i], the embeddings e
// and the gradients ∂S/∂e, both [N][T_i][D]. sel[i] has len(seqs[i]) entries.
func (m *Model) EmbeddingGradient(ctx context.Context, seqs [][]int32, sel [][]float32) (scores [][]float32, emb, grad [][][]float32, err error) {
	if err := m.ready(ctx, "embedding gradient", scoreHead, seqs, checkSelection(seqs, sel)); err != nil {
		return nil, nil, nil, err
	}
	pad, T := m.padded(seqs)
	wpad := make([][]float32, len(pad)) // a padding row's weights are 0: it adds nothing to S
	for i := range wpad {
		wpad[i] = make([]float32, T)
		if i < len(sel) {
			copy(wpad[i], sel[i])
		}
	}
	out, err := m.run("embedding gradient", "embgrad", func(w *weights, in []*Node) []*Node {
		tokens, weights := in[0], in[1] // [B, T], [B, T]
		x := embedTokens(w, tokens)     // [B, T, D]
		score := m.scores(w, x, tokens) // [B, T]
		S := ReduceAllSum(Mul(score, weights))
		return []*Node{score, x, Gradient(S, x)[0]}
	}, pad, wpad)
	if err != nil {
		return nil, nil, nil, err
	}
	n := lengths(seqs, 0)
	first := make([]int, len(seqs))
	for i := range first {
		first[i] = i * T
	}
	D := m.Config.HiddenSize
	return spans(out[0], T, n), pickRows(out[1], D, first, n), pickRows(out[2], D, first, n), nil
}

// checkSelection checks EmbeddingGradient's selection weights: one row per
// sequence, one weight per token.
func checkSelection(seqs [][]int32, sel [][]float32) error {
	if len(sel) != len(seqs) {
		return fmt.Errorf("embedding gradient: %d selections for %d sequences", len(sel), len(seqs))
	}
	for i := range seqs {
		if len(sel[i]) != len(seqs[i]) {
			return fmt.Errorf("embedding gradient: sequence %d has %d tokens but %d selection weights", i, len(seqs[i]), len(sel[i]))
		}
	}
	return nil
}

// ScoreEmbeddings runs the scoring head on given input embeddings
// emb [N][T_i][D] instead of token ids: out[i][t] is label 0's logit. The
// exact (slow) attribution of the gradient method re-scores sequences in
// which one token's embedding was replaced.
func (m *Model) ScoreEmbeddings(ctx context.Context, emb [][][]float32) ([][]float32, error) {
	if err := m.needs("score embeddings", scoreHead); err != nil {
		return nil, err
	}
	if err := m.checkEmbeddings(emb); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	D, T, n := m.Config.HiddenSize, 0, make([]int, len(emb))
	for i, rows := range emb {
		T, n[i] = max(T, len(rows)), len(rows)
	}
	T = Bucket(T)
	B := m.rowBucket(len(emb)) // padding rows of zero embeddings
	flat := make([]float32, B*T*D)
	for i, rows := range emb {
		for t, r := range rows {
			copy(flat[(i*T+t)*D:], r)
		}
	}
	out, err := m.run("score embeddings", "scoreemb", func(w *weights, in []*Node) []*Node {
		x := in[0] // [B, T, D]
		dims := x.Shape().Dimensions
		tokens := Zeros(x.Graph(), shapes.Make(dtypes.Int32, dims[0], dims[1])) // only its shape is read
		return []*Node{m.scores(w, x, tokens)}
	}, tensors.FromFlatDataAndDimensions(flat, B, T, D))
	if err != nil {
		return nil, err
	}
	return spans(out[0], T, n), nil
}

// checkEmbeddings checks ScoreEmbeddings' input: a batch of sequences of
// 1 to context-length rows of the model's width.
func (m *Model) checkEmbeddings(emb [][][]float32) error {
	if len(emb) == 0 {
		return fmt.Errorf("score embeddings: empty batch")
	}
	for i, rows := range emb {
		if len(rows) == 0 || len(rows) > m.Config.MaxPositionEmbeddings {
			return fmt.Errorf("score embeddings: sequence %d has %d positions (want 1..%d)", i, len(rows), m.Config.MaxPositionEmbeddings)
		}
		for _, r := range rows {
			if len(r) != m.Config.HiddenSize {
				return fmt.Errorf("score embeddings: sequence %d has a row of width %d, want %d", i, len(r), m.Config.HiddenSize)
			}
		}
	}
	return nil
}

// EmbeddingRow copies the input embedding of one token.
func (m *Model) EmbeddingRow(id int32) ([]float32, error) {
	if id < 0 || int(id) >= m.Config.VocabSize {
		return nil, fmt.Errorf("embedding row: token id %d outside the vocabulary [0, %d)", id, m.Config.VocabSize)
	}
	D := m.Config.HiddenSize
	table := tensors.MustCopyFlatData[float32](m.param("model.embed_tokens.weight"))
	return append([]float32(nil), table[int(id)*D:int(id+1)*D]...), nil
}

// MeanEmbedding is the mean of the input embedding table's rows.
func (m *Model) MeanEmbedding() []float32 {
	D := m.Config.HiddenSize
	table := tensors.MustCopyFlatData[float32](m.param("model.embed_tokens.weight"))
	mean := make([]float64, D)
	for i, v := range table {
		mean[i%D] += float64(v)
	}
	out := make([]float32, D)
	for i := range out {
		out[i] = float32(mean[i] / float64(m.Config.VocabSize))
	}
	return out
}
