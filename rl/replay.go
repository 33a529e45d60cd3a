package rl

import (
	"context"
	"fmt"

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

// logProber is what the KL term needs of the frozen reference policy: the
// log-probability of every target token, logp[i][t] = log π(seq[t+1] | seq[≤t]).
type logProber interface {
	LogProbs(ctx context.Context, seqs [][]int32) ([][]float32, error)
}

var (
	_ forwarder = (*model.Model)(nil)
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
func (r replayer) Replay(ctx context.Context, reqs []credit.ReplayRequest) ([][][]float32, error) {
	maxLen := r.m.ContextLength()
	out := make([][][]float32, 0, len(reqs))
	for start := 0; start < len(reqs); start += r.chunk {
		end := min(start+r.chunk, len(reqs))
		seqs := make([][]int32, 0, end-start)
		from := make([]int, 0, end-start)
		for _, req := range reqs[start:end] {
			prompt := r.tok.EncodePrompt(req.Prompt)
			if over := len(prompt) + len(req.Response) - maxLen; over > 0 {
				if over >= len(prompt) {
					return nil, fmt.Errorf("replay: a response of %d tokens does not fit the context of %d", len(req.Response), maxLen)
				}
				prompt = prompt[over:]
			}
			seqs = append(seqs, append(append([]int32(nil), prompt...), req.Response...))
			from = append(from, len(prompt))
		}
		dist, err := r.m.Distributions(ctx, seqs, from)
		if err != nil {
			return nil, fmt.Errorf("replay: %w", err)
		}
		out = append(out, dist...)
	}
	return out, nil
}
