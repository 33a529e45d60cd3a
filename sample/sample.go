package sample

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"

	"github.com/credo-rl/credo/tokenizer"
)

// Config controls generation. The zero value is not useful; start from
// DefaultConfig.
type Config struct {
	// MaxTokens bounds each response's new tokens (the ending EOS included).
	MaxTokens int `json:"max_tokens"`
	// Temperature divides the logits before sampling: 1 samples the policy
	// as it is (what on-policy RL wants), 0 is greedy.
	Temperature float64 `json:"temperature"`
	// TopP keeps the smallest set of tokens whose probability reaches it
	// (nucleus sampling); 1 keeps them all.
	TopP float64 `json:"top_p"`
	// Stop ends a response as soon as its text contains one of these.
	Stop []string `json:"stop,omitempty"`
	Seed uint64   `json:"seed"`
	// Suppress lists tokens never drawn: their probability is 0, the
	// others' renormalized (log-probs are under that distribution). `credo
	// sample` suppresses the chat template's role tokens; training
	// suppresses nothing (the policy as it is).
	Suppress []int32 `json:"-" yaml:"-"`
}

// DefaultConfig samples the policy unchanged, up to 128 tokens.
func DefaultConfig() Config {
	return Config{MaxTokens: 128, Temperature: 1, TopP: 1}
}

// Validate reports settings that cannot be used.
func (c Config) Validate() error {
	switch {
	case c.MaxTokens < 0:
		return fmt.Errorf("max tokens %d is negative", c.MaxTokens)
	case c.Temperature < 0:
		return fmt.Errorf("temperature %g is negative", c.Temperature)
	case c.TopP <= 0 || c.TopP > 1:
		return fmt.Errorf("top-p %g outside (0, 1]", c.TopP)
	}
	for _, s := range c.Stop {
		if s == "" {
			return fmt.Errorf("empty stop sequence")
		}
	}
	return nil
}

// Finish says why a response ended.
type Finish string

const (
	FinishEOS     Finish = "eos"     // the policy ended it
	FinishStop    Finish = "stop"    // a stop sequence appeared
	FinishLength  Finish = "length"  // MaxTokens was reached
	FinishContext Finish = "context" // the model's context is full: the response is truncated
)

// Response is one generated continuation of a prompt.
type Response struct {
	Prompt  int      // index of its prompt
	Tokens  []int32  // the response tokens, an ending EOS included
	Offsets [][2]int // byte range of each token in Text; EOS has an empty range at the end
	Text    string   // the decoded response, EOS excluded
	// LogProbs[t] = log π(Tokens[t] | prompt, Tokens[<t]) under the model's
	// own distribution (temperature 1, no top-p), as a training forward
	// pass computes it.
	LogProbs []float32
	Finish   Finish
}

// Generate samples group responses for each prompt (token ids, already
// rendered with the tokenizer's chat template). Responses come back in
// prompt order, group by group: response r belongs to prompt r / group.
// m is usually a *model.Model (C is then *model.Cache, inferred).
func Generate[C KV](ctx context.Context, m Decoder[C], tok tokenizer.Tokenizer, prompts [][]int32, group int, c Config) ([]Response, error) {
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("generate: %w", err)
	}
	if group < 1 {
		return nil, fmt.Errorf("generate: group size %d, want at least 1", group)
	}
	maxCtx := m.ContextLength()
	longest := 0
	for i, p := range prompts {
		if len(p) == 0 {
			return nil, fmt.Errorf("generate: prompt %d is empty", i)
		}
		if len(p) >= maxCtx {
			return nil, fmt.Errorf("generate: prompt %d has %d tokens, which leaves no room in the model's context of %d", i, len(p), maxCtx)
		}
		longest = max(longest, len(p))
	}
	out := make([]Response, len(prompts)*group)
	for r := range out {
		out[r].Prompt = r / group
		out[r].Finish = FinishLength
	}
	if c.MaxTokens == 0 || len(prompts) == 0 {
		return out, nil
	}
	// The last token is sampled, never fed back: MaxTokens−1 more slots suffice.
	cache, logits, err := m.Prefill(ctx, prompts, group, min(c.MaxTokens, maxCtx)-1)
	if err != nil {
		return nil, fmt.Errorf("generate: %w", err)
	}
	defer cache.Free()

	rows := make([]row, len(out))
	for r := range rows {
		rows[r] = row{
			rng:    rand.New(rand.NewPCG(c.Seed, uint64(r))),
			length: len(prompts[r/group]),
		}
	}
	eos := tok.EOS()
	next := make([]int32, len(out))
	lps := make([]float32, len(out))
	for step := 0; ; step++ {
		pickAll(rows, logits, c, next, lps)
		live := 0
		for r := range rows {
			if rows[r].done {
				next[r] = eos // finished rows still need a token; it is never read
				continue
			}
			id, lp := next[r], lps[r]
			rows[r].append(&out[r], tok, id, lp, c.Stop)
			switch {
			case rows[r].done:
			case id == eos:
				rows[r].finish(&out[r], FinishEOS)
			case len(out[r].Tokens) >= c.MaxTokens:
				rows[r].finish(&out[r], FinishLength)
			case rows[r].length >= maxCtx:
				rows[r].finish(&out[r], FinishContext)
			default:
				live++
			}
		}
		if live == 0 {
			return out, nil
		}
		if cache.Len() >= cache.Cap() { // only when the context, not MaxTokens, bounds the rows
			for r := range rows {
				if !rows[r].done {
					rows[r].finish(&out[r], FinishContext)
				}
			}
			return out, nil
		}
		if logits, err = m.Decode(ctx, cache, next); err != nil {
			return nil, fmt.Errorf("generate: step %d: %w", step, err)
		}
	}
}

// pickAll draws the next token of every live row, ids[r] and its log-prob
// lps[r], spread over the cores: a row's softmax over a real vocabulary
// (49,152 exps at SmolLM2's) would otherwise run on one core while the
// other waits. Each row draws from its own stream, so the split does not
// change the draws.
func pickAll(rows []row, logits [][]float32, c Config, ids []int32, lps []float32) {
	workers := min(runtime.GOMAXPROCS(0), len(rows))
	if workers <= 1 || len(logits[0]) < 4096 {
		for r := range rows {
			if !rows[r].done {
				ids[r], lps[r] = pick(logits[r], c, rows[r].rng)
			}
		}
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := w; r < len(rows); r += workers {
				if !rows[r].done {
					ids[r], lps[r] = pick(logits[r], c, rows[r].rng)
				}
			}
		}()
	}
	wg.Wait()
}

// row is one response being generated.
type row struct {
	rng    *rand.Rand
	text   strings.Builder
	length int // prompt plus response tokens so far
	done   bool
}

func (w *row) append(r *Response, tok tokenizer.Tokenizer, id int32, lp float32, stop []string) {
	start := w.text.Len()
	if id != tok.EOS() {
		w.text.Write(tok.TokenBytes(id))
	}
	r.Tokens = append(r.Tokens, id)
	r.Offsets = append(r.Offsets, [2]int{start, w.text.Len()})
	r.LogProbs = append(r.LogProbs, lp)
	r.Text = w.text.String()
	w.length++
	for _, s := range stop {
		// Only the new bytes can complete a stop sequence.
		from := max(0, start-len(s)+1)
		if strings.Contains(r.Text[from:], s) {
			w.finish(r, FinishStop)
			return
		}
	}
}

func (w *row) finish(r *Response, f Finish) {
	w.done = true
	r.Finish = f
}
