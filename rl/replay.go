package rl

import (
	"context"
	"fmt"
	"slices"

	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/model"
	"github.com/credo-rl/credo/tokenizer"
)

// forwarder is what replay needs of the policy: next-token distributions
// over given sequences, without gradients, and the context they must fit.
type forwarder interface {
	ContextLength() int
	// Distributions gives, for each sequence, the next-token distribution
	// at every position from from[i] on [N][T_i − from_i][V].
	Distributions(ctx context.Context, seqs [][]int32, from []int) ([][][]float32, error)
}

// sharer is a forwarder's optional capability: Distributions over
// sequences that share prefixes, each prefix run once (model.Model has it).
type sharer interface {
	SharedDistributions(ctx context.Context, s model.Shared, from []int) ([][][]float32, error)
}

// logProber is what the KL term needs of the frozen reference policy: the
// log-probability of every target token, logp[i][t] = log π(seq[t+1] | seq[≤t]).
type logProber interface {
	LogProbs(ctx context.Context, seqs [][]int32) ([][]float32, error)
}

var (
	_ forwarder = (*model.Model)(nil)
	_ sharer    = (*model.Model)(nil)
	_ logProber = (*model.Model)(nil)
)

// replayer is the policy as the credit package's Replayer: it re-reads
// already-sampled responses after rebuilt prompts, without gradients, in
// batches of chunk sequences.
type replayer struct {
	m     forwarder
	tok   tokenizer.Tokenizer
	chunk int
}

// Replay renders each prompt with the chat template, appends the response
// tokens and returns the next-token distribution at every response
// position. A prompt too long for the context loses its oldest tokens
// (the blocks and the answer cue are at its end).
//
// Replay's sequences share long prefixes: a response's variants differ
// only from the first block that one of them leaves out, and a group's
// responses share their prompt. With a policy that can (sharer), each
// batch is cut into clusters of sequences with a common prefix
// (sharePrefixes), and each cluster's prefix runs once.
func (r replayer) Replay(ctx context.Context, reqs []credit.ReplayRequest) ([][][]float32, error) {
	maxLen := r.m.ContextLength()
	seqs := make([][]int32, len(reqs))
	from := make([]int, len(reqs))
	for i, req := range reqs {
		prompt := r.tok.EncodePrompt(req.Prompt)
		if over := len(prompt) + len(req.Response) - maxLen; over > 0 {
			if over >= len(prompt) {
				return nil, fmt.Errorf("replay: a response of %d tokens does not fit the context of %d", len(req.Response), maxLen)
			}
			prompt = prompt[over:]
		}
		seqs[i] = append(append([]int32(nil), prompt...), req.Response...)
		from[i] = len(prompt)
	}
	out := make([][][]float32, len(reqs))
	sh, shares := r.m.(sharer)
	if len(from) == 0 || slices.Min(from) < 2 { // a one-token prompt leaves no prefix to share
		shares = false
	}
	order := make([]int, len(reqs)) // sorted: sequences with a common prefix are adjacent
	for i := range order {
		order[i] = i
	}
	if shares {
		slices.SortStableFunc(order, func(a, b int) int { return slices.Compare(seqs[a], seqs[b]) })
	}
	for start := 0; start < len(order); start += r.chunk {
		idx := order[start:min(start+r.chunk, len(order))]
		part := make([][]int32, len(idx))
		at := make([]int, len(idx))
		for j, i := range idx {
			part[j], at[j] = seqs[i], from[i]
		}
		var dist [][][]float32
		var err error
		if shares {
			dist, err = sh.SharedDistributions(ctx, sharePrefixes(part, at), at)
		} else {
			dist, err = r.m.Distributions(ctx, part, at)
		}
		if err != nil {
			return nil, fmt.Errorf("replay: %w", err)
		}
		for j, i := range idx {
			out[i] = dist[j]
		}
	}
	return out, nil
}

// sharePrefixes cuts sorted sequences into runs that share a prefix and
// returns them as a model.Shared batch, in the same order. A prefix
// stops before from[i] − 1, the position whose prediction is the first
// one asked for. A run grows while sharing still saves tokens: a run of
// n sequences with a common prefix of p tokens saves (n − 1)·p, so a
// sequence that shortens the prefix to l joins when n·l ≥ (n − 1)·p.
func sharePrefixes(seqs [][]int32, from []int) model.Shared {
	s := model.Shared{Owner: make([]int, len(seqs)), Suffixes: make([][]int32, len(seqs))}
	for lo := 0; lo < len(seqs); {
		p := from[lo] - 1
		hi := lo + 1
		for ; hi < len(seqs); hi++ {
			l := min(p, from[hi]-1, commonPrefix(seqs[hi-1], seqs[hi]))
			if l < 1 || (hi-lo+1)*l < (hi-lo)*p {
				break
			}
			p = l
		}
		s.Prefixes = append(s.Prefixes, seqs[lo][:p])
		for i := lo; i < hi; i++ {
			s.Owner[i] = len(s.Prefixes) - 1
			s.Suffixes[i] = seqs[i][p:]
		}
		lo = hi
	}
	return s
}

// commonPrefix is the length of the longest common prefix of a and b.
func commonPrefix(a, b []int32) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}
