package model

import (
	"context"
	"fmt"
	"math"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive
	"github.com/gomlx/gomlx/core/tensors"
)

// Vocabulary-chunked passes: what needs only a number per position (the
// target's log-probability, the most likely token) is computed C
// vocabulary entries at a time, never holding a [B, T, V] table. A
// 151,936-token vocabulary at 64 × 256 positions is a 10 GB table.

// vocabChunk is the vocabulary entries a chunked pass scores at once.
const vocabChunk = 8192

// chunkRows is the sequences a chunked pass runs through the layers at once.
const chunkRows = 16

// Targets returns, for each sequence and each position t < len(s) − 1,
// the log-probability of the next token and the most likely next token:
// logp[i][t] = log p(s[t+1] | s[≤t]) = z_{s[t+1]} − log Σ_v exp z_v and
// greedy[i][t] = argmax_v z_v, with z the logits at t. The log-sum-exp
// and the arg-max run over the vocabulary in chunks
// (M ← max(M, m_c), S ← S·e^{M−M'} + s_c·e^{m_c−M'}), so memory grows with
// the chunk, not with the vocabulary.
func (m *Model) Targets(ctx context.Context, seqs [][]int32) (logp [][]float32, greedy [][]int32, err error) {
	return m.targets(ctx, seqs, vocabChunk)
}

func (m *Model) targets(ctx context.Context, seqs [][]int32, chunk int) ([][]float32, [][]int32, error) {
	if err := m.ready(ctx, "targets", lmHead, seqs, nil); err != nil {
		return nil, nil, err
	}
	logp, greedy := make([][]float32, len(seqs)), make([][]int32, len(seqs))
	for lo := 0; lo < len(seqs); lo += chunkRows {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		hi := min(lo+chunkRows, len(seqs))
		if err := m.targetRows(seqs[lo:hi], min(chunk, m.Config.VocabSize), logp[lo:hi], greedy[lo:hi]); err != nil {
			return nil, nil, err
		}
	}
	return logp, greedy, nil
}

// targetRows is targets on one call's rows, C vocabulary entries at a
// time, writing each sequence's log-probs and greedy tokens into logp and
// greedy.
func (m *Model) targetRows(seqs [][]int32, C int, logp [][]float32, greedy [][]int32) error {
	pad, T := m.padded(seqs)
	out, err := m.run("targets", "targets-hidden", m.buildTargetHidden, pad)
	if err != nil {
		return err
	}
	h, tl := out[0], tensors.MustCopyFlatData[float32](out[1]) // [b, T−1, D], [b, T−1]
	out[1].FinalizeAll()
	defer h.FinalizeAll()
	n := len(seqs) * (T - 1) // the real rows' positions; the padding rows' follow them
	M, S, best := make([]float32, n), make([]float64, n), make([]float32, n)
	arg := make([]int32, n)
	for k := range M {
		M[k], best[k] = float32(math.Inf(-1)), float32(math.Inf(-1))
	}
	V := m.Config.VocabSize
	stats := func(w *weights, in []*Node) []*Node { return m.buildChunkStats(w, in, C) }
	for from := 0; from < V; from += C {
		start := min(from, V-C) // the last chunk overlaps the one before; columns < from are masked
		res, err := m.run("targets", fmt.Sprintf("targets-chunk-%d", C), stats, h, int32(start), int32(from))
		if err != nil {
			return err
		}
		mx, se := tensors.MustCopyFlatData[float32](res[0]), tensors.MustCopyFlatData[float32](res[1])
		am := tensors.MustCopyFlatData[int32](res[2])
		for _, r := range res {
			r.FinalizeAll()
		}
		for k := range M {
			next := max(M[k], mx[k])
			S[k] = S[k]*math.Exp(float64(M[k]-next)) + float64(se[k])*math.Exp(float64(mx[k]-next))
			M[k] = next
			if mx[k] > best[k] {
				best[k], arg[k] = mx[k], am[k]
			}
		}
	}
	for i, s := range seqs {
		L := max(len(s)-1, 0)
		logp[i], greedy[i] = make([]float32, L), make([]int32, L)
		for t := range L {
			k := i*(T-1) + t
			logp[i][t] = float32(float64(tl[k]) - float64(M[k]) - math.Log(S[k]))
			greedy[i][t] = arg[k]
		}
	}
	return nil
}

// buildTargetHidden is the layers' output h [B, T−1, D] at every position
// but the last, and the target's logit z_{s[t+1]} = h_t · W_{s[t+1]} [B, T−1].
func (m *Model) buildTargetHidden(w *weights, args []*Node) []*Node {
	tokens := args[0] // [B, T]
	T := tokens.Shape().Dimensions[1]
	in := Slice(tokens, AxisRange(), AxisRange(0, T-1))                              // [B, T−1]
	tgt := Slice(tokens, AxisRange(), AxisRange(1, T))                               // [B, T−1]
	h := forward(m.Config, w, embedTokens(w, in), sequenceInputs(m.Config, in), nil) // [B, T−1, D]
	rows := Gather(w.head, ExpandAxes(tgt, -1))                                      // [B, T−1, D]
	return []*Node{h, ReduceSum(Mul(h, rows), -1)}                                   // [B, T−1, D], [B, T−1]
}

// buildChunkStats scores the head rows [start, start+C) against h
// [B, T, D] and, over the columns ≥ from, returns each position's
// maximum logit m_c, Σ exp(z − m_c) and the arg-max's vocabulary id.
func (m *Model) buildChunkStats(w *weights, in []*Node, C int) []*Node {
	h, start, from := in[0], in[1], in[2] // [B, T, D], scalars
	g := h.Graph()
	col := Add(Iota(g, shapes.Make(dtypes.Int32, C), 0), start) // [C] vocabulary ids
	head := Gather(w.head, ExpandAxes(col, -1))                 // [C, D]
	z := Einsum("btd,vd->btv", h, head)                         // [B, T, C]
	dims := z.Shape().Dimensions
	valid := BroadcastPrefix(GreaterOrEqual(col, from), dims[0], dims[1]) // [B, T, C]
	z = Where(valid, z, BroadcastToDims(Infinity(g, dtypes.Float32, -1), dims...))
	mx := ReduceMax(z, -1)                               // [B, T]
	se := ReduceSum(Exp(Sub(z, ExpandAxes(mx, -1))), -1) // [B, T]
	am := Add(ArgMax(z, -1, dtypes.Int32), start)        // [B, T]
	return []*Node{mx, se, am}
}
