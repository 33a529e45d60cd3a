package rl

import (
	"context"
	"fmt"

	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/policy"
)

// replayer is the policy as the credit package's Replayer: it re-reads
// already-sampled responses after rebuilt prompts, without gradients, in
// batches of chunk sequences.
type replayer struct {
	p     *policy.Policy
	chunk int
}

// Replay renders each prompt with the chat template, appends the response
// tokens and returns the next-token distribution at every response
// position. A prompt too long for the context loses its oldest tokens
// (the blocks and the answer cue are at its end).
func (r replayer) Replay(ctx context.Context, reqs []credit.ReplayRequest) ([][][]float32, error) {
	maxLen := r.p.Model.Config.MaxPositionEmbeddings
	out := make([][][]float32, 0, len(reqs))
	for start := 0; start < len(reqs); start += r.chunk {
		end := min(start+r.chunk, len(reqs))
		seqs := make([][]int32, 0, end-start)
		from := make([]int, 0, end-start)
		for _, req := range reqs[start:end] {
			prompt := r.p.Tok.EncodePrompt(req.Prompt)
			if over := len(prompt) + len(req.Response) - maxLen; over > 0 {
				if over >= len(prompt) {
					return nil, fmt.Errorf("replay: a response of %d tokens does not fit the context of %d", len(req.Response), maxLen)
				}
				prompt = prompt[over:]
			}
			seqs = append(seqs, append(append([]int32(nil), prompt...), req.Response...))
			from = append(from, len(prompt))
		}
		dist, err := r.p.Model.Distributions(ctx, seqs, from)
		if err != nil {
			return nil, fmt.Errorf("replay: %w", err)
		}
		out = append(out, dist...)
	}
	return out, nil
}
