package credit

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/credo-rl/credo/credit/js"
	"github.com/credo-rl/credo/internal/parallel"
	"github.com/credo-rl/credo/reward"
)

func init() { Register("mrtpo", newMRTPO, Shuffle, Joint, Neutral) }

func newMRTPO(c Config) (Method, error) {
	if err := errors.Join(c.validateEps(), c.PlacementOptions.Validate(), c.ReplayOptions.Validate()); err != nil {
		return nil, err
	}
	measure := js.Divergence
	if c.JS == JSFormDistance {
		measure = js.Distance
	}
	return &placed{name: "mrtpo", c: c, src: replaySource{joint: c.Joint, placebo: c.Placebo, neutral: c.Neutral, js: measure}, warmup: c.ReplayWarmup}, nil
}

// PlaceboBlock is a neutral information block: text that tells nothing
// about any reward, for measuring how much any added block moves the
// policy (Config.Placebo, replay.BlockDiagnostic).
const PlaceboBlock = "Note: this line is only here to take up some room and says nothing about the task."

// replaySource is the replay relevance source (MRTPO): how much each
// response token's next-token distribution depends on reward k's
// information block.
type replaySource struct {
	joint, placebo, neutral bool
	js                      func(p, q []float32) float64 // js.Divergence or js.Distance (Config.JS)
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
// followed by the response tokens, and sets q[k,i,t] = js.Divergence(p_t, p'_t)
// (or js.Distance, its square root, with Config.JS "distance").
// Block k of response i is Verdicts[k][i].Info. One full replay serves all
// rewards of a response; a without-k prompt that renders like full (block k
// is empty) needs no replay, q = 0; identical requests are made once; the
// requests go to the Replayer one prompt's responses at a time (a call per
// run of responses with the same prompt), each request once. The metrics
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
//
// It is four steps, each its own function so that a trainer whose engine
// replays (the service's /v1/replay-plan, PlanReplay) shares them: plan
// (which requests), run (the Replayer's calls), score (the JS rows; here
// run and score go part by part, replayScore) and place (rows onto pairs,
// and the metrics).
func (s replaySource) relevance(ctx context.Context, v *view, _ [][]float64, m Metrics) ([][][]float64, error) {
	if v.b.Replay == nil {
		return nil, fmt.Errorf("the replay source needs Batch.Replay (the policy without gradients)")
	}
	p, err := s.plan(v)
	if err != nil {
		return nil, err
	}
	sc, err := s.replayScore(ctx, v.b.Replay, p, v.b.Prompts)
	if err != nil {
		return nil, err
	}
	return s.place(v, p, sc, m), nil
}

// replayPlan is the plan step's answer for a batch.
type replayPlan struct {
	reqs     []ReplayRequest // distinct requests, in the order the pairs first need them
	pairs    []pairPlan      // every (reward, response) pair with variance, by response then reward
	replayed int             // pairs whose q comes from a replay (not same)
}

// plan decides the replays of a batch: for each response with a reward
// that varies in its group (in response order), the full prompt
// reward.Compose(Prompts[i], every block) and, for each such reward k (in
// reward order), the prompt without block k (joint: without every block),
// each followed by the response tokens; with placebo also the full prompt
// followed by PlaceboBlock. A pair whose without-k prompt renders like full
// (its block is empty), or whose response has no tokens, is same: q = 0
// with no replay. Identical requests are planned once.
func (s replaySource) plan(v *view) (replayPlan, error) {
	b := v.b
	if len(b.Prompts) != v.n {
		return replayPlan{}, fmt.Errorf("the replay source needs Batch.Prompts: %d prompts for %d responses", len(b.Prompts), v.n)
	}
	var p replayPlan
	index := map[string]int{} // request key → index: identical requests are made once
	request := func(prompt string, i int) int {
		key := ReplayRequest{Prompt: prompt, Response: b.Tokens[i]}.Key()
		r, ok := index[key]
		if !ok {
			r = len(p.reqs)
			index[key] = r
			p.reqs = append(p.reqs, ReplayRequest{Prompt: prompt, Response: b.Tokens[i]})
		}
		return r
	}
	blocks := make([]string, v.k)
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
					p.pairs = append(p.pairs, pairPlan{k: k, i: i, same: true})
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
		joint := s.jointPrompt(b.Prompts[i], blocks)
		fullReq, placeboReq := -1, -1
		for k := range v.k {
			if !v.varies[k][i] {
				continue
			}
			other := joint
			if !s.joint {
				blk := blocks[k]
				blocks[k] = s.removed(blk) // Compose leaves empty blocks out
				other = reward.Compose(b.Prompts[i], blocks)
				blocks[k] = blk
			}
			if other == full {
				p.pairs = append(p.pairs, pairPlan{k: k, i: i, same: true})
				continue
			}
			if fullReq < 0 {
				fullReq = request(full, i)
				if s.placebo {
					placeboReq = request(reward.Compose(full, []string{PlaceboBlock}), i)
				}
			}
			p.pairs = append(p.pairs, pairPlan{k: k, i: i, full: fullReq, other: request(other, i), placebo: placeboReq})
			p.replayed++
		}
	}
	return p, nil
}

// removed is what stands in a replay's prompt for a block it leaves out:
// nothing, or with neutral neutral text of its length.
func (s replaySource) removed(block string) string {
	if s.neutral {
		return NeutralBlock(block)
	}
	return ""
}

// jointPrompt is the prompt without any block (joint), or with each
// replaced by neutral text of its length.
func (s replaySource) jointPrompt(prompt string, blocks []string) string {
	if !s.neutral {
		return reward.Compose(prompt, nil)
	}
	out := make([]string, len(blocks))
	for k, b := range blocks {
		out[k] = NeutralBlock(b)
	}
	return reward.Compose(prompt, out)
}

// NeutralBlock is neutral text of block's length in bytes (PlaceboBlock
// repeated and cut; "" for an empty block), a block's stand-in in the
// equal-length control: for the byte-level tokenizer credo's small
// policies use, the same number of tokens; for a BPE tokenizer about it.
func NeutralBlock(block string) string {
	if block == "" {
		return ""
	}
	n := len(block)
	return strings.Repeat(PlaceboBlock+" ", n/(len(PlaceboBlock)+1)+1)[:n]
}

// runReplay asks r for every planned request in one call (none when there
// are none) and checks that the answers have the requests' shapes: one
// answer per request, one distribution per response token.
func runReplay(ctx context.Context, r Replayer, reqs []ReplayRequest) ([][][]float32, error) {
	if len(reqs) == 0 {
		return nil, nil
	}
	out, err := r.Replay(ctx, reqs)
	if err != nil {
		return nil, fmt.Errorf("replay %d requests: %w", len(reqs), err)
	}
	if len(out) != len(reqs) {
		return nil, fmt.Errorf("replay returned %d answers for %d requests", len(out), len(reqs))
	}
	for i, d := range out {
		if len(d) != len(reqs[i].Response) {
			return nil, fmt.Errorf("replay request %d: %d distributions for %d response tokens", i, len(d), len(reqs[i].Response))
		}
	}
	return out, nil
}

// replayJob is one JS row: the requests of a pair's full, other and
// placebo (−1: none) replays. With joint, the rewards of a response share
// one.
type replayJob struct{ full, other, placebo int }

// scoredRows are the score step's answer: one row per distinct job.
type scoredRows struct {
	jobs  []replayJob
	jobOf map[replayJob]int
	rows  [][]float64  // rows[j][t] = js(p_t, p'_t), less the placebo JS with placebo
	sums  [][2]float64 // Σ_t JS and Σ_t placebo JS of each row
}

// score computes, for each distinct job of the plan's replayed pairs,
//
//	row[t] = js(full_t, other_t)                               (no placebo)
//	row[t] = max(0, js(full_t, other_t) − js(full_t, placebo_t)) (placebo)
//
// with js js.Divergence or js.Distance (Config.JS), and the row's sums of
// both terms before the subtraction, from out, every request's answer.
// Rows are independent, so they are computed in parallel; two
// distributions of different lengths at one position are an error.
func (s replaySource) score(ctx context.Context, p replayPlan, out [][][]float32) (scoredRows, error) {
	sc, _ := planJobs(p, nil)
	err := s.scoreJobs(ctx, p, &sc, 0, len(sc.jobs), func(r int) [][]float32 { return out[r] })
	return sc, err
}

// planJobs lists the plan's distinct jobs in the order its pairs first
// need them, with rows and sums to fill, and each job's part: parts start
// where the pairs' response has another prompt than the one before (a
// group's responses share their prompt, and their replays its prefix), so
// parts are consecutive runs of jobs. prompts nil puts every job in part 0.
func planJobs(p replayPlan, prompts []string) (scoredRows, []int) {
	sc := scoredRows{jobOf: map[replayJob]int{}}
	var partOf []int
	part := 0
	for n, pp := range p.pairs {
		if n > 0 && prompts != nil && prompts[pp.i] != prompts[p.pairs[n-1].i] {
			part++
		}
		if j := (replayJob{pp.full, pp.other, pp.placebo}); !pp.same {
			if _, ok := sc.jobOf[j]; !ok {
				sc.jobOf[j] = len(sc.jobs)
				sc.jobs = append(sc.jobs, j)
				partOf = append(partOf, part)
			}
		}
	}
	sc.rows = make([][]float64, len(sc.jobs))
	sc.sums = make([][2]float64, len(sc.jobs))
	return sc, partOf
}

// scoreJobs fills the rows and sums of jobs [lo, hi) of sc (score's
// formula), reading request r's answer as dist(r).
func (s replaySource) scoreJobs(ctx context.Context, p replayPlan, sc *scoredRows, lo, hi int, dist func(r int) [][]float32) error {
	return parallel.For(ctx, hi-lo, func(n int) error {
		j := lo + n
		job := sc.jobs[j]
		full, other := dist(job.full), dist(job.other)
		row := make([]float64, len(full))
		for t := range row {
			if len(full[t]) != len(other[t]) {
				return fmt.Errorf("replay of %q, token %d: vocabularies of %d and %d",
					p.reqs[job.other].Prompt, t, len(full[t]), len(other[t]))
			}
			row[t] = s.js(full[t], other[t])
			sc.sums[j][0] += row[t]
			if job.placebo >= 0 {
				pl := s.js(full[t], dist(job.placebo)[t])
				sc.sums[j][1] += pl
				row[t] = max(0, row[t]-pl)
			}
		}
		sc.rows[j] = row
		return nil
	})
}

// replayScore runs and scores the plan part by part (planJobs' parts: one
// prompt's responses), keeping a request's distributions only until the
// last part that reads it: a step holds one group's [R][T][V] tables at a
// time instead of the batch's (with SmolLM2's 49,152-token vocabulary, 25
// MB a 128-token replay). The rows equal score's on one call's answers up
// to the float rounding of the calls' other row counts.
func (s replaySource) replayScore(ctx context.Context, r Replayer, p replayPlan, prompts []string) (scoredRows, error) {
	sc, partOf := planJobs(p, prompts)
	last := make([]int, len(p.reqs)) // the last part that reads each request
	for j, job := range sc.jobs {
		for _, q := range []int{job.full, job.other, job.placebo} {
			if q >= 0 {
				last[q] = max(last[q], partOf[j])
			}
		}
	}
	have := map[int][][]float32{}
	for lo := 0; lo < len(sc.jobs); {
		part, hi := partOf[lo], lo
		var idx []int // the part's requests not yet replayed
		for ; hi < len(sc.jobs) && partOf[hi] == part; hi++ {
			job := sc.jobs[hi]
			for _, q := range []int{job.full, job.other, job.placebo} {
				if _, ok := have[q]; q >= 0 && !ok && !slices.Contains(idx, q) {
					idx = append(idx, q)
				}
			}
		}
		slices.Sort(idx) // the plan's order: parts run in it
		reqs := make([]ReplayRequest, len(idx))
		for n, q := range idx {
			reqs[n] = p.reqs[q]
		}
		out, err := runReplay(ctx, r, reqs)
		if err != nil {
			return sc, err
		}
		for n, q := range idx {
			have[q] = out[n]
		}
		if err := s.scoreJobs(ctx, p, &sc, lo, hi, func(q int) [][]float32 { return have[q] }); err != nil {
			return sc, err
		}
		for q := range have {
			if last[q] <= part {
				delete(have, q)
			}
		}
		lo = hi
	}
	return sc, nil
}

// place sets q[k][i] for every planned pair, [K][N] with nil rows for the
// pairs without variance: a zero row for a same pair, its job's row for a
// replayed one (a row shared by several pairs is copied for all but the
// first: rows are the caller's to change, and shuffle's). It adds the
// metrics credit/replay/requests, credit/replay/pairs, credit/replay/js
// and, with placebo, credit/replay/placebo_js.
func (s replaySource) place(v *view, p replayPlan, sc scoredRows, m Metrics) [][][]float64 {
	q := make([][][]float64, v.k)
	for k := range q {
		q[k] = make([][]float64, v.n)
	}
	used := make([]bool, len(sc.jobs))
	for _, pp := range p.pairs {
		switch j := sc.jobOf[replayJob{pp.full, pp.other, pp.placebo}]; {
		case pp.same:
			q[pp.k][pp.i] = make([]float64, len(v.b.Tokens[pp.i]))
		case used[j]:
			q[pp.k][pp.i] = append([]float64(nil), sc.rows[j]...)
		default:
			q[pp.k][pp.i], used[j] = sc.rows[j], true
		}
	}
	m["credit/replay/requests"] = float64(len(p.reqs))
	if tokens := 0; len(sc.jobs) > 0 {
		var js, pl float64
		for j := range sc.jobs {
			tokens += len(sc.rows[j])
			js, pl = js+sc.sums[j][0], pl+sc.sums[j][1]
		}
		if tokens > 0 {
			m["credit/replay/js"] = js / float64(tokens)
			if s.placebo {
				m["credit/replay/placebo_js"] = pl / float64(tokens)
			}
		}
	}
	if v.n > 0 {
		m["credit/replay/pairs"] = float64(p.replayed) / float64(v.n*v.k)
	}
	return q
}

// ReplayPlan is what a replay method asks its Replayer for on a batch: the
// plan step of the replay source, for trainers whose own engine replays
// (the service's /v1/replay-plan). Answer every request and put the
// answers in Batch.Replay (a topk.Replayer): the method then plans the same
// requests again and asks for exactly these.
type ReplayPlan struct {
	Requests []ReplayRequest // distinct requests, in the order the pairs first need them
	Pairs    []ReplayPair    // the (response, reward) pairs whose relevance comes from a replay
}

// ReplayPair is one (response, reward) pair that needs replay, with the
// indices in ReplayPlan.Requests of its two (three) replays.
type ReplayPair struct {
	Response, Reward int
	Full, Without    int // the full prompt's request and the one without the reward's block (joint: without every block)
	Placebo          int // full followed by PlaceboBlock (Config.Placebo), else −1
}

// PlanReplay returns the replays method name, built from c, would ask for
// on b (Batch.Replay is not used). Only a method with a replay source has
// them: any other is an error, as is a batch the method would refuse.
func PlanReplay(name string, c Config, b *Batch) (ReplayPlan, error) {
	m, err := New(name, c)
	if err != nil {
		return ReplayPlan{}, err
	}
	src, ok := replaySourceOf(m)
	if !ok {
		return ReplayPlan{}, fmt.Errorf("credit method %q does not replay", name)
	}
	v, err := newView(b)
	if err != nil {
		return ReplayPlan{}, fmt.Errorf("%s: %w", name, err)
	}
	p, err := src.plan(v)
	if err != nil {
		return ReplayPlan{}, fmt.Errorf("%s: %w", name, err)
	}
	out := ReplayPlan{Requests: p.reqs}
	for _, pp := range p.pairs {
		if !pp.same {
			out.Pairs = append(out.Pairs, ReplayPair{Response: pp.i, Reward: pp.k, Full: pp.full, Without: pp.other, Placebo: pp.placebo})
		}
	}
	return out, nil
}

// replaySourceOf finds the replay source inside a method built by New
// (through GRPO-scaling and SAW, which change weights and scale but not
// which pairs are replayed).
func replaySourceOf(m Method) (replaySource, bool) {
	for {
		switch x := m.(type) {
		case *scaled:
			m = x.inner
		case *saw:
			m = x.inner
		case *placed:
			s, ok := x.src.(replaySource)
			return s, ok
		default:
			return replaySource{}, false
		}
	}
}
