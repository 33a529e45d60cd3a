package credit

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/credo-rl/credo/reward"
)

func init() { Register("mrtpo", newMRTPO, Shuffle, Joint) }

func newMRTPO(c Config) (Method, error) {
	if err := errors.Join(c.validateEps(), c.validatePlacement(), c.validateReplay()); err != nil {
		return nil, err
	}
	js := JSDivergence
	if c.JS == JSFormDistance {
		js = JSDistance
	}
	return &placed{name: "mrtpo", c: c, src: replaySource{joint: c.Joint, placebo: c.Placebo, js: js}, warmup: c.ReplayWarmup}, nil
}

// PlaceboBlock is a neutral information block: text that tells nothing
// about any reward, for measuring how much any added block moves the
// policy (Config.Placebo, replay.BlockDiagnostic).
const PlaceboBlock = "Note: this line is only here to take up some room and says nothing about the task."

// replaySource is the replay relevance source (MRTPO): how much each
// response token's next-token distribution depends on reward k's
// information block.
type replaySource struct {
	joint, placebo bool
	js             func(p, q []float32) float64 // JSDivergence or JSDistance (Config.JS)
}

// pairPlan says which two replays give q for one (reward, response) pair;
// same is set when both prompts render the same, so q is 0 with no replay.
type pairPlan struct {
	k, i        int
	full, other int // request indices
	placebo     int // request index of full + PlaceboBlock (Config.Placebo), else -1
	same        bool
}

// relevance replays, for every response with a reward that varies in its
// group, the policy on
//
//	full      = reward.Compose(prompt, blocks of every reward, in reward order)
//	without k = the same without block k   (joint: reward.Compose(prompt, nil))
//
// followed by the response tokens, and sets q[k,i,t] = JSDivergence(p_t, p'_t)
// (or JSDistance, its square root, with Config.JS "distance").
// Block k of response i is Verdicts[k][i].Info. One full replay serves all
// rewards of a response; a without-k prompt that renders like full (block k
// is empty) needs no replay, q = 0; identical requests are made once; all of
// the batch's requests go to the Replayer in one call. The metrics
// credit/replay/requests (sequences replayed) and credit/replay/pairs (share
// of the batch's (response, reward) pairs whose q came from a replay) say
// what it cost; credit/replay/js is the mean q over the replayed tokens.
//
// With placebo (Config.Placebo, an extension) each response is also
// replayed on placebo = reward.Compose(prompt, blocks of every reward, then
// PlaceboBlock), and q[k,i,t] = max(0, JS(p_t, p'_t) − JS(p_t, p^placebo_t)):
// the part of block k's effect beyond what any added text does there.
// credit/replay/placebo_js is then the mean placebo JS over the same
// tokens, and credit/replay/js the mean before the subtraction.
func (s replaySource) relevance(ctx context.Context, v *view, _ [][]float64, m Metrics) ([][][]float64, error) {
	b := v.b
	if b.Replay == nil {
		return nil, fmt.Errorf("the replay source needs Batch.Replay (the policy without gradients)")
	}
	if len(b.Prompts) != v.n {
		return nil, fmt.Errorf("the replay source needs Batch.Prompts: %d prompts for %d responses", len(b.Prompts), v.n)
	}
	var reqs []ReplayRequest
	index := map[string]int{} // request key → index: identical requests are made once
	request := func(prompt string, i int) int {
		key := make([]byte, 0, len(prompt)+1+4*len(b.Tokens[i]))
		key = append(append(key, prompt...), 0)
		for _, tok := range b.Tokens[i] {
			key = binary.LittleEndian.AppendUint32(key, uint32(tok))
		}
		r, ok := index[string(key)]
		if !ok {
			r = len(reqs)
			index[string(key)] = r
			reqs = append(reqs, ReplayRequest{Prompt: prompt, Response: b.Tokens[i]})
		}
		return r
	}
	var plans []pairPlan
	blocks := make([]string, v.k)
	pairs := 0
	for i := range v.n {
		needed := false
		for k := range v.k {
			needed = needed || v.varies[k][i]
		}
		if !needed {
			continue
		}
		if len(b.Tokens[i]) == 0 { // nothing to replay: an empty row
			for k := range v.k {
				if v.varies[k][i] {
					plans = append(plans, pairPlan{k: k, i: i, same: true})
				}
			}
			continue
		}
		for k := range v.k {
			blocks[k] = ""
			if vd := v.verdict(k, i); vd != nil {
				blocks[k] = vd.Info
			}
		}
		full := reward.Compose(b.Prompts[i], blocks)
		joint := reward.Compose(b.Prompts[i], nil)
		fullReq, placeboReq := -1, -1
		for k := range v.k {
			if !v.varies[k][i] {
				continue
			}
			other := joint
			if !s.joint {
				blk := blocks[k]
				blocks[k] = "" // Compose leaves empty blocks out
				other = reward.Compose(b.Prompts[i], blocks)
				blocks[k] = blk
			}
			if other == full {
				plans = append(plans, pairPlan{k: k, i: i, same: true})
				continue
			}
			if fullReq < 0 {
				fullReq = request(full, i)
				if s.placebo {
					placeboReq = request(reward.Compose(full, []string{PlaceboBlock}), i)
				}
			}
			plans = append(plans, pairPlan{k: k, i: i, full: fullReq, other: request(other, i), placebo: placeboReq})
			pairs++
		}
	}
	var out [][][]float32
	if len(reqs) > 0 {
		var err error
		if out, err = b.Replay.Replay(ctx, reqs); err != nil {
			return nil, fmt.Errorf("replay %d requests: %w", len(reqs), err)
		}
		if len(out) != len(reqs) {
			return nil, fmt.Errorf("replay returned %d answers for %d requests", len(out), len(reqs))
		}
		for r, d := range out {
			if len(d) != len(reqs[r].Response) {
				return nil, fmt.Errorf("replay request %d: %d distributions for %d response tokens", r, len(d), len(reqs[r].Response))
			}
		}
	}
	// One JS row per distinct (full, other) pair of replays: with joint, the
	// rewards of a response share it. Rows are independent, so they are
	// computed in parallel.
	type job struct{ full, other, placebo int }
	var jobs []job
	jobOf := map[job]int{}
	for _, p := range plans {
		if j := (job{p.full, p.other, p.placebo}); !p.same {
			if _, ok := jobOf[j]; !ok {
				jobOf[j] = len(jobs)
				jobs = append(jobs, j)
			}
		}
	}
	rows := make([][]float64, len(jobs))
	sums := make([][2]float64, len(jobs)) // Σ_t JS and Σ_t placebo JS of each row
	err := parallelFor(ctx, len(jobs), func(j int) error {
		full, other := out[jobs[j].full], out[jobs[j].other]
		row := make([]float64, len(full))
		for t := range row {
			if len(full[t]) != len(other[t]) {
				return fmt.Errorf("replay of %q, token %d: vocabularies of %d and %d",
					reqs[jobs[j].other].Prompt, t, len(full[t]), len(other[t]))
			}
			row[t] = s.js(full[t], other[t])
			sums[j][0] += row[t]
			if jobs[j].placebo >= 0 {
				pl := s.js(full[t], out[jobs[j].placebo][t])
				sums[j][1] += pl
				row[t] = max(0, row[t]-pl)
			}
		}
		rows[j] = row
		return nil
	})
	if err != nil {
		return nil, err
	}
	q := make([][][]float64, v.k)
	for k := range q {
		q[k] = make([][]float64, v.n)
	}
	used := make([]bool, len(jobs))
	for _, p := range plans {
		switch j := jobOf[job{p.full, p.other, p.placebo}]; {
		case p.same:
			q[p.k][p.i] = make([]float64, len(b.Tokens[p.i]))
		case used[j]: // rows are the caller's to change (and shuffle's): one each
			q[p.k][p.i] = append([]float64(nil), rows[j]...)
		default:
			q[p.k][p.i], used[j] = rows[j], true
		}
	}
	m["credit/replay/requests"] = float64(len(reqs))
	if tokens := 0; len(jobs) > 0 {
		var js, pl float64
		for j := range jobs {
			tokens += len(rows[j])
			js, pl = js+sums[j][0], pl+sums[j][1]
		}
		if tokens > 0 {
			m["credit/replay/js"] = js / float64(tokens)
			if s.placebo {
				m["credit/replay/placebo_js"] = pl / float64(tokens)
			}
		}
	}
	if v.n > 0 {
		m["credit/replay/pairs"] = float64(pairs) / float64(v.n*v.k)
	}
	return q, nil
}
