package sample

import (
	"context"

	"github.com/credo-rl/credo/model"
)

// Decoder is what generation needs of a model: the prompts run once into
// a key-value cache, then one token per row at a time. *model.Model is
// one; a test can plug in a fake whose logits it chooses.
type Decoder[C KV] interface {
	// ContextLength bounds a row's prompt plus response tokens.
	ContextLength() int
	// Prefill runs the prompts (group rows each: row r is prompt r/group)
	// into a cache with room for newTokens more tokens per row and returns
	// each row's next-token logits [B][V].
	Prefill(ctx context.Context, prompts [][]int32, group, newTokens int) (C, [][]float32, error)
	// Decode appends one token to every row of the cache and returns the
	// next-token logits [B][V].
	Decode(ctx context.Context, c C, tokens []int32) ([][]float32, error)
}

// KV is a decoder's key-value cache as generation sees it.
type KV interface {
	Len() int // slots filled, padding included
	Cap() int // slots: Decode fails once Len reaches it
	Free()
}

// Forwarder is what the cache-free reference generator needs: full
// next-token distributions from given positions on.
type Forwarder interface {
	ContextLength() int
	// Distributions gives, for each sequence, the next-token distribution
	// at every position from from[i] on [N][T_i − from_i][V].
	Distributions(ctx context.Context, seqs [][]int32, from []int) ([][][]float32, error)
}

var (
	_ Decoder[*model.Cache] = (*model.Model)(nil)
	_ Forwarder             = (*model.Model)(nil)
)
