package model

import (
	"context"
	"fmt"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive
	"github.com/gomlx/gomlx/core/tensors"
)

// The language-model head's forward functions. Each checks its call
// (ready), runs one compiled graph per batch (run) and copies out what its
// caller reads (spans, pickRows).

// LogProbs returns, for each sequence, the log-probability of every token
// after the first given the tokens before it: out[i][t] = log p(s[t+1] | s[≤t]).
// A vocabulary larger than one chunk is scored in chunks (Targets), never
// holding a [B, T, V] table.
func (m *Model) LogProbs(ctx context.Context, seqs [][]int32) ([][]float32, error) {
	if m.Config.VocabSize > vocabChunk {
		lp, _, err := m.Targets(ctx, seqs)
		return lp, err
	}
	return m.wholeLogProbs(ctx, seqs)
}

// wholeLogProbs is LogProbs from the whole [B, T−1, V] log-softmax table,
// in one graph: the faster path for a small vocabulary.
func (m *Model) wholeLogProbs(ctx context.Context, seqs [][]int32) ([][]float32, error) {
	if err := m.ready(ctx, "log-probs", lmHead, seqs, nil); err != nil {
		return nil, err
	}
	pad, T := m.padded(seqs)
	out, err := m.run("log-probs", "logprobs", func(w *weights, in []*Node) []*Node {
		lp, _ := tokenLogProbs(m.Config, w, in[0]) // tokens [B, T] → [B, T−1]
		return []*Node{lp}
	}, pad)
	if err != nil {
		return nil, err
	}
	return spans(out[0], T-1, lengths(seqs, 1)), nil
}

// tokenLogProbs computes log p(tokens[:, t+1] | tokens[:, ≤t]) [B, T−1] and
// the entropy of each of those predictions [B, T−1].
func tokenLogProbs(c Config, w *weights, tokens *Node) (logp, entropy *Node) {
	T := tokens.Shape().Dimensions[1]
	in := Slice(tokens, AxisRange(), AxisRange(0, T-1)) // [B, T-1]
	tgt := Slice(tokens, AxisRange(), AxisRange(1, T))  // [B, T-1]
	h := forward(c, w, embedTokens(w, in), sequenceInputs(c, in), nil)
	return targetLogProbs(w, h, tgt)
}

// windowLogProbs is tokenLogProbs at width positions of each row from
// from[b] [B] on: logp[b, r] = log p(tokens[b, from[b]+r+1] |
// tokens[b, ≤ from[b]+r]), [B, width], with its entropy. The layers run
// over every position (later positions attend to earlier ones), the head
// and its softmax only over the window: a prompt's positions, which a
// policy loss masks out, cost no [T, V] logits. from[b] + width ≤ T − 1.
func windowLogProbs(c Config, w *weights, tokens, from *Node, width int) (logp, entropy *Node) {
	dims := tokens.Shape().Dimensions
	B, T := dims[0], dims[1]
	in := Slice(tokens, AxisRange(), AxisRange(0, T-1))                // [B, T-1]
	h := forward(c, w, embedTokens(w, in), sequenceInputs(c, in), nil) // [B, T-1, D]
	g := tokens.Graph()
	at := shapes.Make(dtypes.Int32, B, width, 1)
	row := Iota(g, at, 0)                                                          // [B, W, 1]: b
	pos := Add(Iota(g, at, 1), Reshape(ConvertDType(from, dtypes.Int32), B, 1, 1)) // [B, W, 1]: from[b] + r
	hw := Gather(h, Concatenate([]*Node{row, pos}, -1))                            // [B, W, D]
	tgt := Gather(tokens, Concatenate([]*Node{row, AddScalar(pos, 1)}, -1))        // [B, W]
	return targetLogProbs(w, hw, tgt)
}

// targetLogProbs is the head on hidden states h [B, T', D]: the
// log-probability of each target tgt [B, T'] and the entropy of each
// prediction, both [B, T'].
func targetLogProbs(w *weights, h, tgt *Node) (logp, entropy *Node) {
	logits := headLogits(w, h)    // [B, T', V]
	all := LogSoftmax(logits, -1) // [B, T', V]
	g, dims := tgt.Graph(), tgt.Shape().Dimensions
	at := shapes.Make(dtypes.Int32, dims[0], dims[1], 1)
	idx := Concatenate([]*Node{Iota(g, at, 0), Iota(g, at, 1), ExpandAxes(tgt, -1)}, -1) // [B, T', 3]: (b, t, target)
	logp = Gather(all, idx)                                                              // [B, T'], no one-hot [B, T', V] table
	p := StopGradient(Exp(all))
	entropy = Neg(ReduceSum(Mul(p, StopGradient(all)), -1)) // [B, T']
	return logp, entropy
}

// Distributions returns, for each sequence and each position t ≥ from[i],
// the next-token distribution from which s[t] is predicted, that is
// p(· | s[<t]): out[i] has len(s) − from[i] rows of VocabSize
// probabilities. from[i] must be at least 1 (the first token has no
// prediction). Replay compares two of these for the same response.
func (m *Model) Distributions(ctx context.Context, seqs [][]int32, from []int) ([][][]float32, error) {
	if err := m.ready(ctx, "distributions", lmHead, seqs, checkStarts(seqs, from)); err != nil {
		return nil, err
	}
	return m.distributionsIn(ctx, seqs, from, distBytes)
}

// checkStarts checks Distributions' start positions: one per sequence, in
// [1, len(s)].
func checkStarts(seqs [][]int32, from []int) error {
	if len(from) != len(seqs) {
		return fmt.Errorf("distributions: %d start positions for %d sequences", len(from), len(seqs))
	}
	for i, f := range from {
		if f < 1 || f > len(seqs[i]) {
			return fmt.Errorf("distributions: start %d outside [1, %d] for sequence %d", f, len(seqs[i]), i)
		}
	}
	return nil
}

// distributionsIn is Distributions with calls of as many rows as keep
// their [rows, T, V] logit and probability tables within maxBytes (a
// 151,936-token vocabulary makes a 64 × 256 batch's table 10 GB).
func (m *Model) distributionsIn(ctx context.Context, seqs [][]int32, from []int, maxBytes int) ([][][]float32, error) {
	return byRows(ctx, len(seqs), m.tableRows(seqs, maxBytes), func(lo, hi int) ([][][]float32, error) {
		return m.distributions(seqs[lo:hi], from[lo:hi])
	})
}

// tableRows is how many of these sequences one call may run while its
// [rows, T, V] logit and probability tables (T their longest, bucketed,
// and on XLA the rows padded to a RowBucket count: rowBucket) stay within
// maxBytes: at least one.
func (m *Model) tableRows(seqs [][]int32, maxBytes int) int {
	T := 0
	for _, q := range seqs {
		T = max(T, len(q))
	}
	rows := max(1, maxBytes/(2*4*Bucket(T)*m.Config.VocabSize))
	if m.rowBuckets {
		rows = rowsWithin(rows)
	}
	return rows
}

// byRows runs f on rows [lo, hi) of n, at most rows at a time, checking
// ctx before each call, and joins the results in order.
func byRows(ctx context.Context, n, rows int, f func(lo, hi int) ([][][]float32, error)) ([][][]float32, error) {
	res := make([][][]float32, 0, n)
	for lo := 0; lo < n; lo += rows {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		part, err := f(lo, min(lo+rows, n))
		if err != nil {
			return nil, err
		}
		res = append(res, part...)
	}
	return res, nil
}

// distBytes bounds the probability tables one Distributions call builds.
const distBytes = 256 << 20

// distributions is Distributions in one graph call.
func (m *Model) distributions(seqs [][]int32, from []int) ([][][]float32, error) {
	pad, T := m.padded(seqs)
	out, err := m.run("distributions", "probs", func(w *weights, in []*Node) []*Node {
		tokens := in[0] // [B, T]
		h := forward(m.Config, w, embedTokens(w, tokens), sequenceInputs(m.Config, tokens), nil)
		return []*Node{Softmax(headLogits(w, h), -1)} // [B, T, V]
	}, pad)
	if err != nil {
		return nil, err
	}
	first, n := make([]int, len(seqs)), make([]int, len(seqs))
	for i, s := range seqs {
		first[i], n[i] = i*T+from[i]-1, len(s)-from[i] // the prediction for position t is made at t−1
	}
	return pickRows(out[0], m.Config.VocabSize, first, n), nil
}

// lengths is each sequence's length less less (at least 0): how many of
// its positions a per-token output holds.
func lengths(seqs [][]int32, less int) []int {
	n := make([]int, len(seqs))
	for i, s := range seqs {
		n[i] = max(len(s)-less, 0)
	}
	return n
}

// spans copies sequence i's n[i] values out of row i of an output tensor
// [B, T] and finalizes the tensor; each is a view of one copy, capped at
// its own end.
func spans(out *tensors.Tensor, T int, n []int) [][]float32 {
	flat := tensors.MustCopyFlatData[float32](out)
	out.FinalizeAll()
	res := make([][]float32, len(n))
	for i, k := range n {
		res[i] = flat[i*T : i*T+k : i*T+k]
	}
	return res
}

// pickRows copies rows of width V out of an output tensor [B, T, V]
// (rows counted flat, b·T + t), sequence i's being rows start[i] …
// start[i]+n[i]−1, into one allocation (without first copying the whole
// table, whose padding and prompt rows are not wanted) and finalizes the
// tensor. The rows are views of that allocation, each capped at its own
// end.
func pickRows(out *tensors.Tensor, V int, start, n []int) [][][]float32 {
	total := 0
	for _, k := range n {
		total += k
	}
	buf := make([]float32, total*V)
	res := make([][][]float32, len(n))
	tensors.MustConstFlatData(out, func(flat []float32) {
		at := 0
		for i := range n {
			rows := make([][]float32, n[i])
			copy(buf[at*V:], flat[start[i]*V:(start[i]+n[i])*V])
			for k := range rows {
				lo := (at + k) * V
				rows[k] = buf[lo : lo+V : lo+V]
			}
			res[i] = rows
			at += n[i]
		}
	})
	out.FinalizeAll()
	return res
}
