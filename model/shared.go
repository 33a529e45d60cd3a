package model

import (
	"context"
	"fmt"
	"slices"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive
	"github.com/gomlx/gomlx/core/tensors"
)

// Shared is a batch of sequences that share prefixes: sequence i is
// Prefixes[Owner[i]] followed by Suffixes[i]. Replay re-reads one response
// after several prompts that differ only near their end, and a group's
// responses share their prompt: each prefix is run once instead of once
// per sequence.
type Shared struct {
	Prefixes [][]int32
	Owner    []int     // per sequence: index into Prefixes
	Suffixes [][]int32 // per sequence: the tokens after its prefix (not empty)
}

// SharedDistributions is Distributions over the sequences of s: for each
// sequence, the next-token distribution at every position from from[i] on
// (positions counted in the whole sequence, prefix included), [N][T_i −
// from_i][V]. from[i] must lie after the prefix: len(prefix) < from[i] ≤
// len(prefix) + len(suffix), since the prediction at position t is made
// at t − 1 and only suffix positions produce predictions here.
//
// The prefixes run once each, their keys and values are gathered to the
// rows that extend them, and the suffixes run as a cache extension (the
// decode path with many tokens): the result equals Distributions on the
// concatenated sequences up to float rounding.
func (m *Model) SharedDistributions(ctx context.Context, s Shared, from []int) ([][][]float32, error) {
	if m.Config.NumLabels > 0 {
		return nil, fmt.Errorf("shared distributions: the model has a scoring head, not a language-model head")
	}
	n := len(s.Suffixes)
	if len(s.Owner) != n || len(from) != n {
		return nil, fmt.Errorf("shared distributions: %d owners and %d starts for %d suffixes", len(s.Owner), len(from), n)
	}
	if len(s.Prefixes) == 0 {
		return nil, fmt.Errorf("shared distributions: no prefixes")
	}
	if err := m.checkTokens(s.Prefixes); err != nil {
		return nil, fmt.Errorf("shared distributions: prefix: %w", err)
	}
	if err := m.checkTokens(s.Suffixes); err != nil {
		return nil, fmt.Errorf("shared distributions: suffix: %w", err)
	}
	for i, o := range s.Owner {
		if o < 0 || o >= len(s.Prefixes) {
			return nil, fmt.Errorf("shared distributions: sequence %d owns prefix %d of %d", i, o, len(s.Prefixes))
		}
		p, total := len(s.Prefixes[o]), len(s.Prefixes[o])+len(s.Suffixes[i])
		if p == 0 {
			return nil, fmt.Errorf("shared distributions: prefix %d is empty", o)
		}
		if from[i] <= p || from[i] > total {
			return nil, fmt.Errorf("shared distributions: start %d outside [%d, %d] for sequence %d", from[i], p+1, total, i)
		}
		if total > m.Config.MaxPositionEmbeddings {
			return nil, fmt.Errorf("shared distributions: sequence %d has %d tokens, more than the model's context of %d", i, total, m.Config.MaxPositionEmbeddings)
		}
	}
	U := 0
	for _, x := range s.Suffixes {
		U = max(U, len(x))
	}
	rows := max(1, distBytes/(2*4*bucket(U)*m.Config.VocabSize))
	res := make([][][]float32, 0, n)
	for lo := 0; lo < n; lo += rows {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		hi := min(lo+rows, n)
		sub := s
		if lo > 0 || hi < n {
			idx := make([]int, 0, hi-lo)
			for i := lo; i < hi; i++ {
				idx = append(idx, i)
			}
			sub = s.Select(idx)
		}
		part, err := m.sharedDistributions(sub, from[lo:hi])
		if err != nil {
			return nil, err
		}
		res = append(res, part...)
	}
	return res, nil
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
	}
	return out
}

// sharedDistributions is SharedDistributions in one graph call.
func (m *Model) sharedDistributions(s Shared, from []int) ([][][]float32, error) {
	e, err := m.exec("shared", func() (*Exec, error) {
		return NewExec(m.backend, m.buildShared)
	})
	if err != nil {
		return nil, err
	}
	prefixes, L := padded(s.Prefixes, 0)
	suffixes, U := padded(s.Suffixes, 0)
	B := len(suffixes)
	owner := make([]int32, B)
	pos := make([][]int32, B)  // [B, U]: suffix positions in the whole sequence
	valid := make([][]bool, B) // [B, L+U]: the prefix's real tokens and every suffix slot
	for i, o := range s.Owner {
		owner[i] = int32(o)
		p := len(s.Prefixes[o])
		pos[i] = make([]int32, U)
		for u := range U {
			pos[i][u] = int32(p + u)
		}
		valid[i] = make([]bool, L+U)
		for k := range valid[i] {
			valid[i][k] = k < p || k >= L
		}
	}
	out, err := e.Call(append(m.paramArgs(), prefixes, owner, suffixes, pos, valid)...)
	if err != nil {
		return nil, fmt.Errorf("shared distributions: %w", err)
	}
	flat := tensors.MustCopyFlatData[float32](out[0])
	out[0].FinalizeAll()
	V := m.Config.VocabSize
	res := make([][][]float32, B)
	for i, x := range s.Suffixes {
		p := len(s.Prefixes[s.Owner[i]])
		rows := make([][]float32, 0, p+len(x)-from[i])
		for t := from[i]; t < p+len(x); t++ {
			off := (i*U + t - 1 - p) * V // the prediction made at position t−1, suffix slot t−1−p
			rows = append(rows, append([]float32(nil), flat[off:off+V]...))
		}
		res[i] = rows
	}
	return res, nil
}

// buildShared: inputs params, prefixes [P, L] (right-padded), owner [B],
// suffixes [B, U] (right-padded), suffix positions [B, U], key validity
// [B, L+U]; output the suffix's next-token distributions [B, U, V].
func (m *Model) buildShared(inputs []*Node) *Node {
	w, rest := m.splitParams(inputs)
	prefixes, owner, suffixes, pos, valid := rest[0], rest[1], rest[2], rest[3], rest[4]
	g := prefixes.Graph()
	c := m.Config
	P, L := prefixes.Shape().Dimensions[0], prefixes.Shape().Dimensions[1]
	U := suffixes.Shape().Dimensions[1]

	// The prefixes, once each, keeping every layer's keys and values.
	caches := emptyCaches(g, c, P, L)
	forward(c, w, embedTokens(w, prefixes), sequenceInputs(c, prefixes), caches)

	// Each row's prefix keys and values, room for its suffix after them.
	idx := ExpandAxes(owner, -1) // [B, 1]
	for i, kv := range caches {
		caches[i] = growCache(kv, Scalar(g, dtypes.Int32, L), func(x *Node, slotAxis int) *Node { // P rows, L slots → B rows, L+U slots
			x = Gather(x, idx)
			pad := slices.Clone(x.Shape().Dimensions)
			pad[slotAxis] = U
			return Concatenate([]*Node{x, Zeros(g, shapes.Make(dtypes.Float32, pad...))}, slotAxis)
		})
	}
	cos, sin := rope(c, pos)
	query := AddScalar(Iota(g, shapes.Make(dtypes.Int32, U), 0), L) // suffix slot u sits at key slot L+u
	in := attnInputs{cos: cos, sin: sin, mask: causalMask(query, Iota(g, shapes.Make(dtypes.Int32, L+U), 0), valid)}
	h := forward(c, w, embedTokens(w, suffixes), in, caches) // [B, U, D]
	return Softmax(headLogits(w, h), -1)                     // [B, U, V]
}
