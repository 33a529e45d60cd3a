package sample

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/credo-rl/credo/tokenizer"
)

// GenerateNoCache is Generate without a KV cache: every new token re-runs
// the whole sequence. It is the reference the cache is tested against and
// the baseline its benchmark measures; never use it for real work.
func GenerateNoCache(ctx context.Context, m Forwarder, tok tokenizer.Tokenizer, prompts [][]int32, group int, c Config) ([]Response, error) {
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("generate: %w", err)
	}
	out := make([]Response, len(prompts)*group)
	seqs := make([][]int32, len(out))
	rows := make([]row, len(out))
	for r := range out {
		out[r] = Response{Prompt: r / group, Finish: FinishLength}
		seqs[r] = append([]int32(nil), prompts[r/group]...)
		rows[r] = row{rng: rand.New(rand.NewPCG(c.Seed, uint64(r))), length: len(seqs[r])}
	}
	for step := 0; step < c.MaxTokens; step++ {
		var live []int
		for r := range rows {
			if !rows[r].done {
				live = append(live, r)
			}
		}
		if len(live) == 0 {
			break
		}
		batch := make([][]int32, len(live))
		from := make([]int, len(live))
		for i, r := range live {
			batch[i], from[i] = seqs[r], len(seqs[r])
		}
		// Distributions predicts positions ≥ from; asking for one past the end
		// needs a placeholder token, which the causal mask keeps unseen.
		for i := range batch {
			batch[i] = append(batch[i], 0)
		}
		probs, err := m.Distributions(ctx, batch, from)
		if err != nil {
			return nil, fmt.Errorf("generate without cache: %w", err)
		}
		for i, r := range live {
			p := probs[i][0]
			logits := make([]float32, len(p))
			for j, v := range p {
				logits[j] = float32(math.Log(float64(v)))
			}
			id, lp := pick(logits, c, rows[r].rng)
			seqs[r] = append(seqs[r], id)
			rows[r].append(&out[r], tok, id, lp, c.Stop)
			switch {
			case rows[r].done:
			case id == tok.EOS():
				rows[r].finish(&out[r], FinishEOS)
			case rows[r].length >= m.ContextLength():
				rows[r].finish(&out[r], FinishContext)
			}
		}
	}
	return out, nil
}
