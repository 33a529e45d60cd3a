package model

import (
	"context"
	"fmt"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive
)

// Shared is a batch of sequences that share prefixes: sequence i is
// Prefixes[Owner[i]] followed by Suffixes[i]. Replay re-reads one response
// after several prompts that differ only near their end, and a group's
// responses share their prompt: each prefix is run once instead of once
// per sequence.
//
// A sequence may extend only the start of its prefix: with Use set,
// sequence i is Prefixes[Owner[i]][:Use[i]] followed by Suffixes[i]. Replay's
// prompt without its last block is the start of the prompt with it, so
// both read one run of the longer prefix.
type Shared struct {
	Prefixes [][]int32
	Owner    []int     // per sequence: index into Prefixes
	Suffixes [][]int32 // per sequence: the tokens after its prefix (not empty)
	Use      []int     // per sequence: how many of its prefix's tokens it extends (nil: all)
}

// used is how many tokens of its prefix sequence i extends.
func (s Shared) used(i int) int {
	if s.Use == nil {
		return len(s.Prefixes[s.Owner[i]])
	}
	return s.Use[i]
}

// SharedDistributions is Distributions over the sequences of s: for each
// sequence, the next-token distribution at every position from from[i] on
// (positions counted in the whole sequence, prefix included), [N][T_i −
// from_i][V]. from[i] must lie after the prefix: p < from[i] ≤ p +
// len(suffix) with p the prefix tokens the sequence extends, since the
// prediction at position t is made at t − 1 and only suffix positions
// produce predictions here.
//
// The prefixes run once each, their keys and values are gathered to the
// rows that extend them, and the suffixes run as a cache extension (the
// decode path with many tokens): the result equals Distributions on the
// concatenated sequences up to float rounding. Calls may run
// concurrently with each other (not with changes to the weights).
func (m *Model) SharedDistributions(ctx context.Context, s Shared, from []int) ([][][]float32, error) {
	if err := m.needs("shared distributions", lmHead); err != nil {
		return nil, err
	}
	if err := m.checkShared(s, from); err != nil {
		return nil, fmt.Errorf("shared distributions: %w", err)
	}
	if err := m.onDevice(); err != nil { // callers may run calls concurrently (rl's replay does)
		return nil, fmt.Errorf("shared distributions: %w", err)
	}
	n := len(s.Suffixes)
	rows := rowsWithin(m.tableRows(s.Suffixes, distBytes)) // padded to RowBucket counts on every backend
	return byRows(ctx, n, rows, func(lo, hi int) ([][][]float32, error) {
		sub := s
		if lo > 0 || hi < n {
			idx := make([]int, 0, hi-lo)
			for i := lo; i < hi; i++ {
				idx = append(idx, i)
			}
			sub = s.Select(idx)
		}
		return m.sharedDistributions(sub, from[lo:hi])
	})
}

// checkShared checks SharedDistributions' batch: one owner and start per
// suffix, owners in range, every token in the vocabulary, each sequence
// extending at least one token of its prefix and starting after it, and
// no longer than the context.
func (m *Model) checkShared(s Shared, from []int) error {
	n := len(s.Suffixes)
	if len(s.Owner) != n || len(from) != n {
		return fmt.Errorf("%d owners and %d starts for %d suffixes", len(s.Owner), len(from), n)
	}
	if len(s.Prefixes) == 0 {
		return fmt.Errorf("no prefixes")
	}
	if s.Use != nil && len(s.Use) != n {
		return fmt.Errorf("%d prefix lengths for %d suffixes", len(s.Use), n)
	}
	if err := m.CheckTokens(s.Prefixes); err != nil {
		return fmt.Errorf("prefix: %w", err)
	}
	if err := m.CheckTokens(s.Suffixes); err != nil {
		return fmt.Errorf("suffix: %w", err)
	}
	for i, o := range s.Owner {
		if o < 0 || o >= len(s.Prefixes) {
			return fmt.Errorf("sequence %d owns prefix %d of %d", i, o, len(s.Prefixes))
		}
		p := s.used(i)
		total := p + len(s.Suffixes[i])
		if p <= 0 || p > len(s.Prefixes[o]) {
			return fmt.Errorf("sequence %d extends %d tokens of prefix %d, which has %d (at least 1)", i, p, o, len(s.Prefixes[o]))
		}
		if from[i] <= p || from[i] > total {
			return fmt.Errorf("start %d outside [%d, %d] for sequence %d", from[i], p+1, total, i)
		}
		if total > m.Config.MaxPositionEmbeddings {
			return fmt.Errorf("sequence %d has %d tokens, more than the model's context of %d", i, total, m.Config.MaxPositionEmbeddings)
		}
	}
	return nil
}

// Select is the batch of sequences rows of s, in that order, with only
// the prefixes they own.
func (s Shared) Select(rows []int) Shared {
	out := Shared{Suffixes: make([][]int32, 0, len(rows)), Owner: make([]int, 0, len(rows))}
	renum := map[int]int{}
	for _, i := range rows {
		o := s.Owner[i]
		r, ok := renum[o]
		if !ok {
			r = len(out.Prefixes)
			renum[o] = r
			out.Prefixes = append(out.Prefixes, s.Prefixes[o])
		}
		out.Owner = append(out.Owner, r)
		out.Suffixes = append(out.Suffixes, s.Suffixes[i])
		if s.Use != nil {
			out.Use = append(out.Use, s.Use[i])
		}
	}
	return out
}

// sharedDistributions is SharedDistributions in one graph call. Its rows
// and prefixes are padded to RowBucket counts, as its lengths are to
// Bucket, on every backend, so that replay's calls, which vary in all
// four, compile a few dozen graphs: a padding row reads the first token of
// prefix 0.
func (m *Model) sharedDistributions(s Shared, from []int) ([][][]float32, error) {
	prefixes, L := Padded(s.Prefixes)
	suffixes, U := Padded(s.Suffixes)
	prefixes = padRows(prefixes, RowBucket(len(prefixes)), L)
	suffixes = padRows(suffixes, RowBucket(len(suffixes)), U)
	B := len(suffixes)
	owner := make([]int32, B)  // [B]: zero (prefix 0) for a padding row
	pos := make([][]int32, B)  // [B, U]: suffix positions in the whole sequence
	valid := make([][]bool, B) // [B, L]: the prefix's real tokens
	for i := range B {
		p := 1 // a padding row's one prefix token
		if i < len(s.Owner) {
			owner[i], p = int32(s.Owner[i]), s.used(i)
		}
		pos[i] = make([]int32, U)
		for u := range U {
			pos[i][u] = int32(p + u)
		}
		valid[i] = make([]bool, L)
		for k := range valid[i] {
			valid[i][k] = k < p
		}
	}
	out, err := m.run("shared distributions", "shared", m.buildShared, prefixes, owner, suffixes, pos, valid)
	if err != nil {
		return nil, err
	}
	first, n := make([]int, len(s.Suffixes)), make([]int, len(s.Suffixes))
	for i, x := range s.Suffixes {
		p := s.used(i)
		first[i], n[i] = i*U+from[i]-1-p, p+len(x)-from[i] // the prediction for position t is made at t−1, suffix slot t−1−p
	}
	return pickRows(out[0], m.Config.VocabSize, first, n), nil
}

// buildShared: inputs prefixes [P, L] (right-padded), owner [B], suffixes
// [B, U] (right-padded), suffix positions [B, U], prefix key validity
// [B, L]; output the suffix's next-token distributions [B, U, V].
func (m *Model) buildShared(w *weights, args []*Node) []*Node {
	prefixes, owner, suffixes, pos, valid := args[0], args[1], args[2], args[3], args[4]
	g := prefixes.Graph()
	c := m.Config
	P, L := prefixes.Shape().Dimensions[0], prefixes.Shape().Dimensions[1]
	U := suffixes.Shape().Dimensions[1]

	// The prefixes, once each, keeping every layer's keys and values.
	caches := emptyCaches(g, c, P, L)
	forward(c, w, embedTokens(w, prefixes), sequenceInputs(c, prefixes), caches)

	// A suffix token sees its prefix's real keys and its own suffix's up to
	// itself: two additive biases, [B, 1, L] and [1, U, U], instead of one
	// [B, 1, U, L+U] mask over a cache grown to L+U slots per row.
	zero, masked := ScalarZero(g, dtypes.Float32), Scalar(g, dtypes.Float32, maskedScore)
	prefixBias := Reshape(Where(valid, zero, masked), -1, 1, L) // [B, 1, L]
	u := Iota(g, shapes.Make(dtypes.Int32, U), 0)
	causalBias := Reshape(Where(LessOrEqual(Reshape(u, 1, U), Reshape(u, U, 1)), zero, masked), 1, U, U) // [1, U, U]

	idx := ExpandAxes(owner, -1) // [B, 1]
	cos, sin := rope(c, pos)
	in := attnInputs{cos: cos, sin: sin}
	h := embedTokens(w, suffixes) // [B, U, D]
	for i, l := range w.layers {
		q, k, v := projectQKV(c, l, h, in)
		kP, vP := Gather(caches[i].k, idx), Gather(caches[i].v, idx) // [B, K, E, L], [B, K, L, E]
		h = finishBlock(c, l, h, attendShared(q, k, v, kP, vP, prefixBias, causalBias))
	}
	h = rmsNorm(h, w.norm, c.RMSNormEps)
	return []*Node{Softmax(headLogits(w, h), -1)} // [B, U, V]
}

// attendShared is attention (see attention) of suffix queries q [B, U, H, E]
// over the keys and values of their prefix, kP [B, K, E, L] and vP
// [B, K, L, E] under prefixBias [B, 1, L], followed by those of their own
// suffix, k and v [B, U, K, E] under causalBias [1, U, U]: one softmax
// over both key sets, Σ_s e_s·v_s / Σ_s e_s with e = exp(score − the
// row's max over both), so the result is attention over the concatenated
// keys without building them.
func attendShared(q, k, v, kP, vP, prefixBias, causalBias *Node) *Node {
	dims := q.Shape().Dimensions
	B, U, H := dims[0], dims[1], dims[2]
	K, L := kP.Shape().Dimensions[1], kP.Shape().Dimensions[3]
	G := H / K
	batch := []int{0, 1}
	qh := groupQueries(q, K)              // [B, K, G·U, E]
	kS := TransposeAllDims(k, 0, 2, 3, 1) // [B, K, E, U]
	vS := TransposeAllDims(v, 0, 2, 1, 3) // [B, K, U, E]

	sP := DotGeneral(qh, []int{3}, batch, kP, []int{2}, batch)                                  // [B, K, G·U, L]
	sP = Reshape(Add(Reshape(sP, B, K*G*U, L), prefixBias), B, K, G*U, L)                       // every query of row b: its prefix's bias
	sS := DotGeneral(qh, []int{3}, batch, kS, []int{2}, batch)                                  // [B, K, G·U, U]
	sS = Reshape(Add(Reshape(sS, B*K*G, U, U), causalBias), B, K, G*U, U)                       // query u sees suffix keys ≤ u
	mx := StopGradient(Max(ReduceAndKeep(sP, ReduceMax, -1), ReduceAndKeep(sS, ReduceMax, -1))) // [B, K, G·U, 1]
	eP, eS := Exp(Sub(sP, mx)), Exp(Sub(sS, mx))
	out := Add(DotGeneral(eP, []int{3}, batch, vP, []int{2}, batch), DotGeneral(eS, []int{3}, batch, vS, []int{2}, batch)) // [B, K, G·U, E]
	out = Mul(out, Reciprocal(Add(ReduceAndKeep(eP, ReduceSum, -1), ReduceAndKeep(eS, ReduceSum, -1))))
	return ungroupHeads(out, H) // [B, U, H*E]
}
