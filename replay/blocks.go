package replay

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/credit/js"
	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/task"
	"github.com/credo-rl/credo/tokenizer"
)

// BlockReport is the block diagnostic: does the policy read the rewards'
// information blocks that replay (MRTPO) adds and removes? Every figure is
// teacher-forced on the task's reference responses (task.Referencer) to
// test prompts, over every response token and the end token.
type BlockReport struct {
	Prompts int `json:"prompts"`
	Tokens  int `json:"tokens"`
	// Mean log-probability per token of the reference responses, after
	// the prompt alone (task.ReplayBase), after it with its own blocks
	// (every reward's, replay's full prompt), with another prompt's blocks,
	// and with PlaceboBlock alone.
	LogProbNone    float64 `json:"logprob_none"`
	LogProbRight   float64 `json:"logprob_right"`
	LogProbWrong   float64 `json:"logprob_wrong"`
	LogProbPlacebo float64 `json:"logprob_placebo"`
	// RightOverWrong = LogProbRight − LogProbWrong, nats per token: how
	// much the policy's answer follows what its blocks say.
	RightOverWrong float64 `json:"right_over_wrong"`
	// ReplayJS is, per reward, the mean over tokens of js.Divergence(full,
	// full without the reward's block), what replay's relevance is made
	// of; PlaceboJS the mean of js.Divergence(full, full + PlaceboBlock), how
	// much any added text moves the policy. Rewards whose block is empty
	// for every reference (sql's executes) are left out.
	ReplayJS  map[string]float64 `json:"replay_js"`
	PlaceboJS float64            `json:"placebo_js"`
	// NeutralJS is ReplayJS with block k replaced by neutral text of its
	// length (credit.NeutralBlock) instead of removed: the equal-length
	// control, in which the response starts at the same position. The
	// Head maps are both over the first HeadTokens response tokens, where
	// a shift of position weighs most, and PositionShareHead is the share
	// of the head's removal JS that the control does not keep,
	// 1 − Σ NeutralJSHead / Σ ReplayJSHead: how much of replay's relevance
	// on the first tokens is position rather than information.
	NeutralJS         map[string]float64 `json:"neutral_js,omitempty"`
	ReplayJSHead      map[string]float64 `json:"replay_js_head,omitempty"`
	NeutralJSHead     map[string]float64 `json:"neutral_js_head,omitempty"`
	PositionShareHead float64            `json:"position_share_head"`
}

// HeadTokens is the number of first response tokens the block report's
// head figures average over.
const HeadTokens = 8

// Metrics are the report as step metrics, under blocks/.
func (r BlockReport) Metrics() map[string]float64 {
	m := map[string]float64{
		"blocks/logprob/none": r.LogProbNone, "blocks/logprob/right": r.LogProbRight,
		"blocks/logprob/wrong": r.LogProbWrong, "blocks/logprob/placebo": r.LogProbPlacebo,
		"blocks/right_over_wrong": r.RightOverWrong, "blocks/placebo_js": r.PlaceboJS,
	}
	for k, v := range r.ReplayJS {
		m["blocks/replay_js/"+k] = v
	}
	for k, v := range r.NeutralJS {
		m["blocks/neutral_js/"+k] = v
	}
	m["blocks/position_share_head"] = r.PositionShareHead
	return m
}

// String is the report in two lines, for a terminal.
func (r BlockReport) String() string {
	var js []string
	for _, k := range slices.Sorted(maps.Keys(r.ReplayJS)) {
		js = append(js, fmt.Sprintf("without %s %.4f (same-length neutral %.4f)", k, r.ReplayJS[k], r.NeutralJS[k]))
	}
	return fmt.Sprintf("blocks (%d test prompts, %d tokens): log-prob/token of the reference: prompt alone %.3f, right blocks %.3f, wrong blocks %.3f, placebo %.3f; right − wrong %.3f nats/token\n"+
		"replay JS (mean per token): %s; adding a placebo block %.4f; on the first %d tokens %.0f%% of it is position, not information",
		r.Prompts, r.Tokens, r.LogProbNone, r.LogProbRight, r.LogProbWrong, r.LogProbPlacebo, r.RightOverWrong,
		strings.Join(js, ", "), r.PlaceboJS, HeadTokens, 100*r.PositionShareHead)
}

// BlockDiagnostic measures on the first n test prompts of t whether the
// policy reads its information blocks (BlockReport). Each prompt's blocks
// are the Info of its reference response's verdicts, in reward order, and
// its wrong blocks those of the next prompt whose blocks differ. A task
// that writes no reference responses is an error.
func BlockDiagnostic(ctx context.Context, p *policy.Policy, t task.Task, n int) (BlockReport, error) {
	return blockDiagnostic(ctx, New(p.Model, p.Tok, 32), p.Tok, t, n)
}

// blockItem is one test prompt with its reference and blocks.
type blockItem struct {
	base   string
	blocks []string
	tokens []int32 // the reference response's tokens and the end token
}

func blockDiagnostic(ctx context.Context, rp credit.Replayer, tok tokenizer.Tokenizer, t task.Task, n int) (BlockReport, error) {
	items, err := blockItems(ctx, tok, t, n)
	if err != nil {
		return BlockReport{}, err
	}
	reqs, start := blockRequests(items)
	out, err := rp.Replay(ctx, reqs)
	if err != nil {
		return BlockReport{}, fmt.Errorf("block diagnostic: %w", err)
	}
	if len(out) != len(reqs) {
		return BlockReport{}, fmt.Errorf("block diagnostic: %d answers for %d requests", len(out), len(reqs))
	}
	return blockSummary(items, t.Rewards(), out, start), nil
}

// blockItems are the first n test prompts of t that have a reference
// response, each with its blocks: the Info of the reference's verdicts,
// in reward order. Fewer than two is an error.
func blockItems(ctx context.Context, tok tokenizer.Tokenizer, t task.Task, n int) ([]blockItem, error) {
	ref, ok := t.(task.Referencer)
	if !ok {
		return nil, fmt.Errorf("block diagnostic: task %s writes no reference responses", t.Name())
	}
	rewards := t.Rewards()
	var items []blockItem
	for i := range n {
		pr := t.Prompt(task.Test, i)
		resp, ok := ref.Reference(pr)
		if !ok {
			continue
		}
		it := blockItem{base: task.ReplayBase(pr), blocks: make([]string, len(rewards))}
		for k, v := range rewards {
			d, err := v.Verify(ctx, pr, resp)
			if err != nil {
				return nil, fmt.Errorf("block diagnostic: %s on %s: %w", v.Name(), pr.ID, err)
			}
			it.blocks[k] = d.Info
		}
		ids, _ := tok.Encode(resp)
		it.tokens = append(ids, tok.EOS())
		items = append(items, it)
	}
	if len(items) < 2 {
		return nil, fmt.Errorf("block diagnostic: %d of %d test prompts have a reference, need 2", len(items), n)
	}
	return items, nil
}

// blockFixed is the number of requests every item makes first: its
// prompt alone, with its own blocks (full), with another prompt's blocks
// (wrong), with the placebo block alone, and full + placebo; then, for
// each k with a block, full without block k and full with block k
// replaced by neutral text of its length.
const blockFixed = 5

// blockRequests lists every item's replays; start[i] is item i's first.
// An item's wrong blocks are those of the next item whose blocks differ.
func blockRequests(items []blockItem) (reqs []credit.ReplayRequest, start []int) {
	start = make([]int, len(items))
	for i, it := range items {
		full := task.Compose(it.base, it.blocks)
		wrong := it.blocks
		for d := 1; d < len(items); d++ {
			if o := items[(i+d)%len(items)].blocks; task.Compose("", o) != task.Compose("", it.blocks) {
				wrong = o
				break
			}
		}
		start[i] = len(reqs)
		for _, pr := range []string{it.base, full, task.Compose(it.base, wrong),
			task.Compose(it.base, []string{credit.PlaceboBlock}), task.Compose(full, []string{credit.PlaceboBlock})} {
			reqs = append(reqs, credit.ReplayRequest{Prompt: pr, Response: it.tokens})
		}
		for k := range it.blocks {
			if it.blocks[k] != "" {
				without := append([]string(nil), it.blocks...)
				without[k] = ""
				reqs = append(reqs, credit.ReplayRequest{Prompt: task.Compose(it.base, without), Response: it.tokens})
				without[k] = credit.NeutralBlock(it.blocks[k])
				reqs = append(reqs, credit.ReplayRequest{Prompt: task.Compose(it.base, without), Response: it.tokens})
			}
		}
	}
	return reqs, start
}

// blockSummary is the report from the replays blockRequests asked for.
func blockSummary(items []blockItem, rewards []reward.Verifier, out [][][]float32, start []int) BlockReport {
	var rep BlockReport
	var lp [4]float64
	var placebo float64
	js, neutral, jsHead, neutralHead := map[string]float64{}, map[string]float64{}, map[string]float64{}, map[string]float64{}
	head := 0
	for i, it := range items {
		r := start[i]
		for c := range lp {
			lp[c] += logProb(out[r+c], it.tokens)
		}
		placebo += meanJS(out[r+1], out[r+4]) * float64(len(it.tokens))
		w := r + blockFixed
		h := min(HeadTokens, len(it.tokens))
		for k := range it.blocks {
			if it.blocks[k] != "" {
				name := rewards[k].Name()
				js[name] += meanJS(out[r+1], out[w]) * float64(len(it.tokens))
				neutral[name] += meanJS(out[r+1], out[w+1]) * float64(len(it.tokens))
				jsHead[name] += meanJS(out[r+1][:h], out[w][:h]) * float64(h)
				neutralHead[name] += meanJS(out[r+1][:h], out[w+1][:h]) * float64(h)
				w += 2
			}
		}
		rep.Tokens += len(it.tokens)
		head += h
	}
	T := float64(rep.Tokens)
	rep.Prompts = len(items)
	rep.LogProbNone, rep.LogProbRight, rep.LogProbWrong, rep.LogProbPlacebo = lp[0]/T, lp[1]/T, lp[2]/T, lp[3]/T
	rep.RightOverWrong = rep.LogProbRight - rep.LogProbWrong
	rep.PlaceboJS = placebo / T
	rep.ReplayJS, rep.NeutralJS = perToken(js, T), perToken(neutral, T)
	rep.ReplayJSHead, rep.NeutralJSHead = perToken(jsHead, float64(head)), perToken(neutralHead, float64(head))
	var sumJS, sumNeutral float64
	for k := range jsHead {
		sumJS, sumNeutral = sumJS+jsHead[k], sumNeutral+neutralHead[k]
	}
	if sumJS > 0 {
		rep.PositionShareHead = 1 - sumNeutral/sumJS
	}
	return rep
}

// perToken divides each sum by the n tokens it was taken over.
func perToken(sums map[string]float64, n float64) map[string]float64 {
	out := map[string]float64{}
	for k, v := range sums {
		out[k] = v / n
	}
	return out
}

// logProb is Σ_t ln dist[t][tokens[t]] (a zero probability counts as
// ln 1e-30, so the sum stays finite).
func logProb(dist [][]float32, tokens []int32) float64 {
	s := 0.0
	for t, d := range dist {
		p := 0.0
		if id := int(tokens[t]); id < len(d) {
			p = float64(d[id])
		}
		s += math.Log(max(p, 1e-30))
	}
	return s
}

// meanJS is the mean over positions of js.Divergence, replay's default measure.
func meanJS(a, b [][]float32) float64 {
	if len(a) == 0 {
		return 0
	}
	s := 0.0
	for t := range a {
		s += js.Divergence(a[t], b[t])
	}
	return s / float64(len(a))
}
