package service

import (
	"fmt"
	"math"
	"slices"

	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/service/wire"
)

// batchRequest is a decoded /v1/advantages or /v1/replay-plan body.
type batchRequest struct {
	method          string
	config          []byte // the overrides as sent
	rewards         []string
	weights         []float64
	step            int
	seed            uint64
	packed          bool // "encoding": "base64"
	returnRelevance bool
	resp            []responseIn
	replay          *replayIn
	influence       []credit.Influence
	hasInfluence    bool
}

// responseIn is one response of the batch as sent.
type responseIn struct {
	group                             int // dense id, in order of first appearance
	groupKey                          any // the id as sent: an int64 or a string
	prompt, response                  string
	hasGroup, hasPrompt, hasResponse  bool
	tokens                            []int32
	offsets                           [][2]int
	hasTokens, hasOffsets, hasVerdict bool
	scores                            []float64
	verdicts                          []reward.Verdict
}

const batchFields = "method, config, rewards, weights, step, seed, encoding, return_relevance, responses, replay, influence"

func decodeBatch(body []byte) (*batchRequest, error) {
	req := &batchRequest{}
	groups := map[any]int{}
	total := 0
	err := decodeObject(body, func(d *wire.Decoder, key string) error {
		var err error
		switch key {
		case "method":
			req.method, err = d.Str()
		case "config":
			req.config, err = d.Raw()
		case "rewards":
			req.rewards, err = d.Strings(maxRewards)
		case "weights":
			req.weights, err = d.Floats(maxRewards)
		case "step":
			var n int64
			n, err = d.Int(0, math.MaxInt32)
			req.step = int(n)
		case "seed":
			req.seed, err = d.Uint()
		case "encoding":
			var e string
			if e, err = d.Str(); err == nil && e != "json" && e != "base64" {
				err = d.Errorf(`want "json" or "base64", got %q`, e)
			}
			req.packed = e == "base64"
		case "return_relevance":
			req.returnRelevance, err = d.Bool()
		case "responses":
			if req.resp = decodeResponsesParallel(d, groups); req.resp != nil {
				break
			}
			err = d.Array(maxResponses, func(i int) error {
				r, err := decodeResponse(d, i)
				r.group = denseGroup(groups, r.groupKey)
				if total += len(r.tokens); err == nil && total > maxBatchTokens {
					err = tooMany(fmt.Sprintf("responses[%d].tokens", i), total, maxBatchTokens, "tokens in the batch")
				}
				req.resp = append(req.resp, r)
				return err
			})
		case "replay":
			req.replay, err = decodeReplay(d)
		case "influence":
			req.hasInfluence = true
			err = d.Array(maxResponses, func(int) error {
				in, err := decodeInfluence(d)
				req.influence = append(req.influence, in)
				return err
			})
		default:
			return d.Unknown(key, batchFields)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return req, req.check()
}

// decodeResponse reads one response and checks what it holds by itself:
// one range per token, every range and span within the response.
func decodeResponse(d *wire.Decoder, i int) (responseIn, error) {
	var r responseIn
	err := d.Members(func(key string) error {
		var err error
		switch key {
		case "group":
			r.groupKey, err = decodeGroup(d)
			r.hasGroup = true
		case "prompt":
			r.prompt, err = d.Str()
			r.hasPrompt = true
		case "response":
			r.response, err = d.Str()
			r.hasResponse = true
		case "tokens":
			r.tokens, err = d.Int32s(0, maxTokens)
			r.hasTokens = true
		case "offsets":
			r.offsets, err = d.Offsets(maxTokens)
			r.hasOffsets = true
		case "scores":
			r.scores, err = d.Floats(maxRewards)
		case "verdicts":
			r.hasVerdict = true
			err = d.Array(maxRewards, func(int) error {
				v, err := decodeVerdict(d)
				r.verdicts = append(r.verdicts, v)
				return err
			})
		default:
			return d.Unknown(key, "group, prompt, response, tokens, offsets, scores, verdicts")
		}
		return err
	})
	if err != nil {
		return r, err
	}
	return r, r.check(fmt.Sprintf("responses[%d]", i))
}

// decodeGroup reads a group id, an integer or a string, as a key for
// denseGroup.
func decodeGroup(d *wire.Decoder) (any, error) {
	if d.Peek() == '"' {
		s, err := d.Str()
		if err != nil {
			return nil, err
		}
		return s, nil
	}
	n, err := d.Int(-1<<53, 1<<53)
	if err != nil {
		return nil, err
	}
	return n, nil
}

// denseGroup is a group key's dense id, in order of first appearance
// (credit only compares group ids); nil (no group) is 0.
func denseGroup(groups map[any]int, key any) int {
	if key == nil {
		return 0
	}
	g, ok := groups[key]
	if !ok {
		g = len(groups)
		groups[key] = g
	}
	return g
}

func (r *responseIn) check(path string) error {
	switch {
	case !r.hasGroup:
		return badRequest(path+".group", "required: the group (prompt) the response was sampled for")
	case !r.hasResponse:
		return badRequest(path+".response", "required: the response text (ranges index its UTF-8 bytes)")
	case !r.hasTokens:
		return badRequest(path+".tokens", "required: the response's token ids")
	case !r.hasOffsets:
		return badRequest(path+".offsets", "required: each token's byte range in the response")
	case len(r.offsets) != len(r.tokens):
		return badf(path+".offsets", "%d ranges for %d tokens: give exactly one [start, end) per token", len(r.offsets), len(r.tokens))
	case r.scores != nil && r.hasVerdict:
		return badRequest(path, "give scores or verdicts, not both")
	case r.scores == nil && !r.hasVerdict:
		return badRequest(path+".scores", "required: scores (one per reward) or verdicts")
	}
	n := len(r.response)
	for t, o := range r.offsets {
		if o[0] < 0 || o[0] > o[1] || o[1] > n {
			return badf(fmt.Sprintf("%s.offsets[%d]", path, t), "range [%d, %d) is not within the response (%d bytes of UTF-8)", o[0], o[1], n)
		}
	}
	for k, v := range r.verdicts {
		for j, sp := range v.Spans {
			if sp.Start < 0 || sp.Start > sp.End || sp.End > n {
				return badf(fmt.Sprintf("%s.verdicts[%d].spans[%d]", path, k, j), "span [%d, %d) is not within the response (%d bytes of UTF-8)", sp.Start, sp.End, n)
			}
		}
	}
	return nil
}

// decodeVerdict reads a verdict as /v1/verify writes it.
func decodeVerdict(d *wire.Decoder) (reward.Verdict, error) {
	var v reward.Verdict
	hasScore := false
	err := d.Members(func(key string) error {
		var err error
		switch key {
		case "score":
			v.Score, err = d.Float()
			hasScore = true
		case "info":
			v.Info, err = d.Str()
		case "reason", "error": // for logs only: accepted, not kept
			err = d.Discard()
		case "spans_dropped": // verify's count of spans past its cap: accepted, not kept
			_, err = d.Int(0, math.MaxInt64)
		case "skip":
			v.Skip, err = d.Bool()
		case "spans":
			err = d.Array(math.MaxInt32, func(int) error {
				sp, err := decodeSpan(d)
				v.Spans = append(v.Spans, sp)
				return err
			})
		default:
			return d.Unknown(key, "score, info, spans, spans_dropped, reason, skip, error")
		}
		return err
	})
	if err == nil && !hasScore && !v.Skip {
		err = d.Errorf("a verdict needs a score (unless skip is true)")
	}
	return v, err
}

func decodeSpan(d *wire.Decoder) (reward.Span, error) {
	var sp reward.Span
	var r byteRange
	err := d.Members(func(key string) error {
		if ok, err := r.read(d, key, math.MinInt32, math.MaxInt32); ok {
			return err
		}
		var err error
		switch key {
		case "strength":
			// A negative strength would turn credit's placement weights
			// negative (a token's share of the verdict below zero): refused.
			if sp.Strength, err = d.Float(); err == nil && sp.Strength < 0 {
				err = d.Errorf("a span's strength must be >= 0 (0 means 1), got %g", sp.Strength)
			}
		case "effect":
			var e string
			if e, err = d.Str(); err == nil {
				switch e {
				case "+":
					sp.Effect = reward.Raised
				case "-":
					sp.Effect = reward.Lowered
				case "":
				default:
					err = d.Errorf(`want "+", "-" or "", got %q`, e)
				}
			}
		default:
			return d.Unknown(key, "start, end, strength, effect")
		}
		return err
	})
	if err == nil && !r.complete() {
		err = d.Errorf("a span needs start and end")
	}
	sp.Start, sp.End = r.start, r.end
	return sp, err
}

// check verifies what spans the whole batch: the rewards, and each
// response's scores or verdicts, one per reward.
func (req *batchRequest) check() error {
	switch {
	case req.method == "":
		return badRequest("method", "required: a method of /v1/methods")
	case len(req.rewards) == 0:
		return badRequest("rewards", "required: the K reward names, in the order of every response's scores or verdicts")
	case len(req.resp) == 0:
		return badRequest("responses", "required: at least one response")
	case req.weights != nil && len(req.weights) != len(req.rewards):
		return badf("weights", "%d weights for %d rewards", len(req.weights), len(req.rewards))
	case req.hasInfluence && len(req.influence) != len(req.resp):
		return badf("influence", "%d influences for %d responses", len(req.influence), len(req.resp))
	}
	for k, name := range req.rewards {
		if slices.Contains(req.rewards[:k], name) {
			return badf(fmt.Sprintf("rewards[%d]", k), "reward %q named twice", name)
		}
	}
	K := len(req.rewards)
	work := 0 // Σ spans × tokens: what mapping spans onto tokens costs
	for i, r := range req.resp {
		for _, v := range r.verdicts {
			if work += len(v.Spans) * len(r.tokens); work > maxSpanWork {
				return tooMany(fmt.Sprintf("responses[%d].verdicts", i), work, maxSpanWork, "spans × tokens (summed over the verdicts)")
			}
		}
		if r.scores != nil && len(r.scores) != K {
			return badf(fmt.Sprintf("responses[%d].scores", i), "%d scores for %d rewards", len(r.scores), K)
		}
		if r.hasVerdict && len(r.verdicts) != K {
			return badf(fmt.Sprintf("responses[%d].verdicts", i), "%d verdicts for %d rewards", len(r.verdicts), K)
		}
	}
	for i, in := range req.influence {
		if err := checkSteps(in, len(req.resp[i].tokens), fmt.Sprintf("influence[%d]", i)); err != nil {
			return err
		}
	}
	return nil
}

// checkSteps: a value per token, steps in order and within the tokens.
func checkSteps(in credit.Influence, n int, path string) error {
	if len(in.Token) != n {
		return badf(path+".token", "%d values for the response's %d tokens", len(in.Token), n)
	}
	prev := 0
	for j, s := range in.Steps {
		if s.Start < prev || s.End < s.Start || s.End > n {
			return badf(fmt.Sprintf("%s.steps[%d]", path, j), "tokens [%d, %d): steps must be in order, disjoint and within the %d tokens", s.Start, s.End, n)
		}
		prev = s.End
	}
	return nil
}

// batch builds credit's Batch: scores [K][N], and verdicts when any
// response sent them (a response with scores only has verdicts holding
// just its scores).
func (req *batchRequest) batch() *credit.Batch {
	N, K := len(req.resp), len(req.rewards)
	b := &credit.Batch{
		Groups: make([]int, N), Scores: make([][]float64, K), Weights: req.weights, Rewards: req.rewards,
		Prompts: make([]string, N), Responses: make([]string, N), Tokens: make([][]int32, N), Offsets: make([][][2]int, N),
		Step: req.step, Seed: req.seed,
	}
	withVerdicts := slices.ContainsFunc(req.resp, func(r responseIn) bool { return r.hasVerdict })
	if withVerdicts {
		b.Verdicts = make([][]reward.Verdict, K)
	}
	for k := range K {
		b.Scores[k] = make([]float64, N)
		if withVerdicts {
			b.Verdicts[k] = make([]reward.Verdict, N)
		}
	}
	for i, r := range req.resp {
		b.Groups[i], b.Prompts[i], b.Responses[i], b.Tokens[i], b.Offsets[i] = r.group, r.prompt, r.response, r.tokens, r.offsets
		for k := range K {
			if r.hasVerdict {
				b.Scores[k][i] = r.verdicts[k].Score
				b.Verdicts[k][i] = r.verdicts[k]
			} else {
				b.Scores[k][i] = r.scores[k]
				if withVerdicts {
					b.Verdicts[k][i] = reward.Verdict{Score: r.scores[k]}
				}
			}
		}
	}
	return b
}
