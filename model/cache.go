package model

import (
	"context"
	"fmt"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive
	"github.com/gomlx/gomlx/core/tensors"
)

// Cache holds the keys and values of a batch being generated, so each new
// token costs one position of compute instead of a re-run of the whole
// sequence. Rows are left-padded prompts: row r's slot s holds the token at
// position s − pad[r]. A Cache belongs to the Model that made it.
type Cache struct {
	kv    []*tensors.Tensor // per layer: keys [B, K, E, S] then values [B, K, S, E]
	pad   []int             // left padding of each row
	pads  *tensors.Tensor   // pad as an int32 tensor [B], every Decode's input
	next  int               // the slot the next token is written to
	slots int               // S, the capacity
	rows  int               // B
}

// Len is the number of slots filled, padding included.
func (c *Cache) Len() int { return c.next }

// Cap is the number of slots; Decode fails once Len reaches it.
func (c *Cache) Cap() int { return c.slots }

// Rows is the batch size.
func (c *Cache) Rows() int { return c.rows }

// Position is the position of the next token of row r.
func (c *Cache) Position(r int) int { return c.next - c.pad[r] }

// Free releases the cache's memory.
func (c *Cache) Free() {
	for _, t := range c.kv {
		t.FinalizeAll()
	}
	c.kv = nil
	if c.pads != nil {
		c.pads.FinalizeAll()
		c.pads = nil
	}
}

// Prefill runs the prompts once and returns a cache holding group copies of
// each (rows p·group … p·group+group−1 belong to prompt p) with room for
// newTokens more tokens per row, and the next-token logits of every row [B][V].
// A group shares its prompt's prefill: the keys and values are computed
// once and broadcast.
func (m *Model) Prefill(ctx context.Context, prompts [][]int32, group, newTokens int) (*Cache, [][]float32, error) {
	if err := m.needs("prefill", lmHead); err != nil {
		return nil, nil, err
	}
	if group < 1 {
		return nil, nil, fmt.Errorf("prefill: group size %d, want at least 1", group)
	}
	if err := m.CheckTokens(prompts); err != nil {
		return nil, nil, fmt.Errorf("prefill: %w", err)
	}
	L := 0
	for i, p := range prompts {
		if len(p) == 0 {
			return nil, nil, fmt.Errorf("prefill: prompt %d is empty", i)
		}
		L = max(L, len(p))
	}
	if newTokens < 0 {
		return nil, nil, fmt.Errorf("prefill: %d new tokens", newTokens)
	}
	L = Bucket(L)
	S := Bucket(L + newTokens)
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	tokens, valid, pos, pads := leftPadded(prompts, L, group)
	out, err := m.run("prefill", fmt.Sprintf("prefill/g%d/s%d", group, S), func(w *weights, in []*Node) []*Node {
		return m.buildPrefill(w, in, group, S)
	}, tokens, valid, pos)
	if err != nil {
		return nil, nil, err
	}
	logits := tensors.MustCopyFlatData[float32](out[0])
	out[0].FinalizeAll()
	pad32 := make([]int32, len(pads))
	for i, p := range pads {
		pad32[i] = int32(p)
	}
	c := &Cache{kv: out[1:], pad: pads, pads: tensors.FromFlatDataAndDimensions(pad32, len(pads)), next: L, slots: S, rows: len(prompts) * group}
	return c, rows(logits, c.rows, m.Config.VocabSize), nil
}

// leftPadded lays prompts out left-padded to L slots: the tokens, which
// slots are real, each slot's position (0 in the padding), and the
// padding of each of the group copies of every prompt.
func leftPadded(prompts [][]int32, L, group int) (tokens [][]int32, valid [][]bool, pos [][]int32, pads []int) {
	P := len(prompts)
	tokens, valid, pos = make([][]int32, P), make([][]bool, P), make([][]int32, P)
	pads = make([]int, 0, P*group)
	for i, p := range prompts {
		pad := L - len(p)
		tokens[i], valid[i], pos[i] = make([]int32, L), make([]bool, L), make([]int32, L)
		copy(tokens[i][pad:], p)
		for s := range L {
			valid[i][s] = s >= pad
			pos[i][s] = int32(max(s-pad, 0))
		}
		for range group {
			pads = append(pads, pad)
		}
	}
	return tokens, valid, pos, pads
}

// buildPrefill: inputs tokens [P, L], valid [P, L], positions [P, L];
// outputs the last position's logits [P·G, V] and the caches [P·G, K, S, E].
func (m *Model) buildPrefill(w *weights, args []*Node, group, S int) []*Node {
	tokens, valid, pos := args[0], args[1], args[2]
	g := tokens.Graph()
	P, L := tokens.Shape().Dimensions[0], tokens.Shape().Dimensions[1]
	c := m.Config
	cos, sin := rope(c, pos)
	idx := Iota(g, shapes.Make(dtypes.Int32, L), 0)
	in := attnInputs{cos: cos, sin: sin, mask: causalMask(idx, idx, valid)}
	caches := emptyCaches(g, c, P, L)
	h := forward(c, w, embedTokens(w, tokens), in, caches)
	last := Slice(h, AxisRange(), AxisRange(L-1, L)) // [P, 1, D]
	logits := Reshape(headLogits(w, last), P, 1, c.VocabSize)
	outs := []*Node{Reshape(BroadcastToDims(logits, P, group, c.VocabSize), P*group, c.VocabSize)}
	for _, kv := range caches {
		kv = growCache(kv, kv.at, func(x *Node, slotAxis int) *Node { // L slots of P rows → S slots of P·G rows
			dims := x.Shape().Dimensions
			x = BroadcastToDims(InsertAxes(x, 1), append([]int{P, group}, dims[1:]...)...)
			x = Reshape(x, append([]int{P * group}, dims[1:]...)...)
			if S > L {
				pad := append([]int{P * group}, dims[1:]...)
				pad[slotAxis] = S - L
				x = Concatenate([]*Node{x, Zeros(g, shapes.Make(dtypes.Float32, pad...))}, slotAxis)
			}
			return x
		})
		outs = append(outs, kv.k, kv.v)
	}
	return outs
}

// Decode appends one token to every row of the cache and returns the
// next-token logits of every row [B][V]. The cache's buffers are donated
// to the step and replaced by its outputs, so memory stays flat.
func (m *Model) Decode(ctx context.Context, c *Cache, tokens []int32) ([][]float32, error) {
	if c.kv == nil {
		return nil, fmt.Errorf("decode: the cache was freed")
	}
	if len(tokens) != c.rows {
		return nil, fmt.Errorf("decode: %d tokens for %d rows", len(tokens), c.rows)
	}
	if c.next >= c.slots {
		return nil, fmt.Errorf("decode: the cache is full (%d slots)", c.slots)
	}
	for _, t := range tokens {
		if t < 0 || int(t) >= m.Config.VocabSize {
			return nil, fmt.Errorf("decode: token id %d outside the vocabulary [0, %d)", t, m.Config.VocabSize)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	e, err := m.graphs.Exec("decode", fmt.Sprintf("%d rows, %d slots", c.rows, c.slots), func() (*Exec, error) {
		return NewExec(m.backend, m.buildDecode)
	})
	if err != nil {
		return nil, err
	}
	// Flat tensors, not nested slices: converting [][]T goes through
	// reflection, which cost 5% of a 1M decode step. Positions and the key
	// mask are computed in the graph from the slot and the padding.
	B := c.rows
	tok := tensors.FromFlatDataAndDimensions(tokens, B, 1)
	defer tok.FinalizeAll()
	args := append(m.paramArgs(), tok, c.pads, int32(c.next))
	for _, t := range c.kv {
		d, err := DonateTensorBuffer(t, m.backend, 0)
		if err != nil {
			return nil, fmt.Errorf("decode: %w", err)
		}
		args = append(args, d)
	}
	c.kv = nil // donated: from here on only the outputs are valid
	out, err := e.Call(args...)
	if err != nil {
		return nil, fmt.Errorf("decode: %w", err)
	}
	logits := tensors.MustCopyFlatData[float32](out[0])
	out[0].FinalizeAll()
	c.kv = out[1:]
	c.next++
	return rows(logits, B, m.Config.VocabSize), nil
}

// buildDecode: inputs params, token [B, 1], left padding [B], slot
// (scalar), then the caches [B, K, S, E]; outputs logits [B, V] and the
// caches. Row r's token is at position slot − pad[r], and it sees the keys
// in slots pad[r]…slot.
//
// The weights stay in PyTorch's [out, in] layout: every product of a step
// is a few dozen rows times a weight, which the backend's skinny path
// (third_party/compute, avx2/skinny.go) runs as dot products along the
// weights' rows, reading each weight once, front to back, on every core.
// (Copies transposed to [in, out] at each Prefill served the paths before
// it: 538 MB more at SmolLM2-135M, and slower there.)
func (m *Model) buildDecode(inputs []*Node) []*Node {
	n := len(m.specs)
	w, rest := m.bind(inputs[:n]), inputs[n:]
	tok, pads, slot := rest[0], rest[1], rest[2]
	kv := rest[3:]
	g := tok.Graph()
	c := m.Config
	B, S := tok.Shape().Dimensions[0], kv[1].Shape().Dimensions[2] // the values [B, K, S, E]
	pad := Reshape(pads, B, 1)
	q := Reshape(slot, 1)
	cos, sin := rope(c, Sub(Reshape(slot, 1, 1), pad)) // positions [B, 1]
	keys := Iota(g, shapes.Make(dtypes.Int32, S), 0)
	valid := GreaterOrEqual(Reshape(keys, 1, S), pad) // [B, S]
	in := broadcastInputs(c, attnInputs{cos: cos, sin: sin, mask: causalMask(q, keys, valid)})
	caches := make([]*kvCache, c.NumHiddenLayers)
	for i := range caches {
		caches[i] = &kvCache{k: kv[2*i], v: kv[2*i+1], at: slot}
	}
	h := forward(c, w, embedTokens(w, tok), in, caches)
	outs := []*Node{Reshape(headLogits(w, h), B, c.VocabSize)}
	for _, kv := range caches {
		outs = append(outs, kv.k, kv.v)
	}
	return outs
}

func rows(flat []float32, n, v int) [][]float32 {
	out := make([][]float32, n)
	for i := range out {
		out[i] = flat[i*v : (i+1)*v : (i+1)*v]
	}
	return out
}
