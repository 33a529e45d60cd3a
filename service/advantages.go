package service

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/credo-rl/credo/conf"
	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/credit/topk"
	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/service/wire"
)

// buildMethod builds the request's method with its config overrides; errors
// name the field at fault.
func (req *batchRequest) buildMethod() (credit.Method, credit.Config, error) {
	cc := conf.DefaultCredit() // the keys of config.json's credit section, older runs' too
	if req.config != nil {
		if err := cc.UnmarshalJSON(req.config); err != nil {
			return nil, cc.Config, badRequest("config", err.Error())
		}
	}
	c := cc.Config
	if err := c.Validate(); err != nil {
		return nil, c, badRequest("config", strings.ReplaceAll(err.Error(), "\n", "; "))
	}
	m, err := credit.New(req.method, c)
	if err != nil {
		return nil, c, badRequest("method", err.Error())
	}
	return m, c, nil
}

// needsPrompts checks that every response sent its prompt.
func (req *batchRequest) needsPrompts(why string) error {
	for i, r := range req.resp {
		if !r.hasPrompt {
			return badf(fmt.Sprintf("responses[%d].prompt", i), "required by %s: the prompt text the policy saw, without information blocks", why)
		}
	}
	return nil
}

// decodeMethod reads a batch request and builds its method.
func decodeMethod(body []byte) (*batchRequest, credit.Method, credit.Config, error) {
	req, err := decodeBatch(body)
	if err != nil {
		return nil, nil, credit.Config{}, err
	}
	m, c, err := req.buildMethod()
	return req, m, c, err
}

// advantages answers POST /v1/advantages (docs/SERVICE.md §7).
func (s *Server) advantages(ctx context.Context, body []byte) ([]byte, error) {
	req, m, c, err := decodeMethod(body)
	if err != nil {
		return nil, err
	}
	b := req.batch()
	needs := credit.RequirementsOf(m)
	if needs.Replay {
		if b.Replay, err = req.replayer(c, b); err != nil {
			return nil, err
		}
	} else if req.replay != nil {
		return nil, badf("replay", "method %s does not replay: leave replay out", req.method)
	}
	if needs.PRM {
		if b.PRM, err = s.influencer(req); err != nil {
			return nil, err
		}
	} else if req.hasInfluence {
		return nil, badf("influence", "method %s uses no influence: leave it out", req.method)
	}
	adv, met, err := m.Advantages(ctx, b)
	if err != nil {
		return nil, advantageError(ctx, err)
	}
	zeroVariance(b, met)
	return writeAdvantages(req, adv, met), nil
}

// replayer checks the replay answers against the batch's plan and serves
// them to the method.
func (req *batchRequest) replayer(c credit.Config, b *credit.Batch) (credit.Replayer, error) {
	if err := req.needsPrompts(req.method); err != nil {
		return nil, err
	}
	if req.replay == nil {
		return nil, badf("replay", "required by %s: the top-k answers to the requests /v1/replay-plan lists for this batch", req.method)
	}
	plan, err := credit.PlanReplay(req.method, c, b)
	if err != nil {
		return nil, badRequest("", err.Error())
	}
	if req.replay.plan != "" && req.replay.plan != planDigest(plan) {
		return nil, badRequest("replay.plan", "this batch plans other replay requests than the plan answered (did the batch change since /v1/replay-plan?)")
	}
	if len(req.replay.answers) != len(plan.Requests) {
		return nil, badf("replay.answers", "%d answers for the %d requests this batch plans (/v1/replay-plan)", len(req.replay.answers), len(plan.Requests))
	}
	rp, err := topk.NewReplayer(plan.Requests, req.replay.answers)
	if err != nil {
		return nil, topKError(err)
	}
	return rp, nil
}

// topKError turns a *topk.Error into a 400 naming the answer's field.
func topKError(err error) error {
	var te *topk.Error
	if !errors.As(err, &te) {
		return nil
	}
	path := fmt.Sprintf("replay.answers[%d].%s", te.Answer, te.Field)
	if te.Field == "answers" {
		path = "replay.answers"
	}
	msg := te.Msg
	if te.Position >= 0 {
		msg = fmt.Sprintf("position %d: %s", te.Position, msg)
		if te.Entry >= 0 {
			msg = fmt.Sprintf("position %d, entry %d: %s", te.Position, te.Entry, te.Msg)
		}
	}
	return badRequest(path, msg)
}

// influencer serves the request's influence, or the server's PRM.
func (s *Server) influencer(req *batchRequest) (credit.Influencer, error) {
	if req.hasInfluence {
		return recordedInfluence(req.influence), nil
	}
	if s.o.PRM == nil {
		return nil, badf("influence", "required by %s: this server holds no PRM (--prm), so send each response's influence and steps", req.method)
	}
	if err := req.needsPrompts(req.method + " with the server's PRM"); err != nil {
		return nil, err
	}
	return serverPRM{s.o.PRM}, nil
}

// recordedInfluence is an Influencer that answers with the influence the
// trainer's own PRM worker computed, one per response in batch order.
type recordedInfluence []credit.Influence

func (r recordedInfluence) Influence(_ context.Context, reqs []credit.InfluenceRequest, _ credit.NullEmbedding) ([]credit.Influence, error) {
	if len(reqs) != len(r) {
		return nil, fmt.Errorf("asked for %d influences, %d were sent", len(reqs), len(r))
	}
	return r, nil
}

// serverPRM marks the server's own PRM's failures as the server's.
type serverPRM struct{ p credit.Influencer }

type serverError struct{ error }

func (s serverPRM) Influence(ctx context.Context, reqs []credit.InfluenceRequest, null credit.NullEmbedding) ([]credit.Influence, error) {
	out, err := s.p.Influence(ctx, reqs, null)
	if err != nil && ctx.Err() == nil {
		err = serverError{fmt.Errorf("the server's PRM: %w", err)}
	}
	return out, err
}

// advantageError classifies a method's error: the deadline, a malformed
// replay answer, the server's PRM, or else the batch (a 400).
func advantageError(ctx context.Context, err error) error {
	var se serverError
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.As(err, &se):
		return se
	}
	if te := topKError(err); te != nil {
		return te
	}
	return badRequest("", err.Error())
}

// zeroVariance adds reward/<name>/zero_var, as the trainer logs it.
func zeroVariance(b *credit.Batch, met credit.Metrics) {
	for k, name := range b.Rewards {
		vs := make([]reward.Verdict, len(b.Groups))
		for i := range vs {
			vs[i].Score = b.Scores[k][i]
			if b.Verdicts != nil {
				vs[i].Skip = b.Verdicts[k][i].Skip
			}
		}
		if share, applies := credit.ZeroVariance(vs, b.Groups); applies > 0 {
			met["reward/"+name+"/zero_var"] = share
		}
	}
}

func writeAdvantages(req *batchRequest, adv credit.Advantages, met credit.Metrics) []byte {
	var w wire.Writer
	w.Raw("{")
	w.StrField("method", req.method, true)
	w.Raw(`,"advantages":`)
	w.Rows(adv.Tokens, req.packed, false)
	w.Key("response_advantages", false)
	w.Floats(adv.Response, false)
	if req.returnRelevance {
		w.Raw(`,"relevance":{`)
		for k, name := range req.rewards {
			w.Key(name, k == 0)
			var q [][]float64 // a nil row is written as null
			if adv.Relevance != nil {
				q = adv.Relevance[k]
			} else {
				q = make([][]float64, len(req.resp))
			}
			w.Rows(q, req.packed, true)
		}
		w.Raw("}")
	}
	w.Raw(`,"metrics":{`)
	for j, key := range sortedKeys(met) {
		w.Key(key, j == 0)
		w.Float(met[key])
	}
	w.Raw("}}")
	return w.Bytes()
}

// planDigest is the SHA-256 of a plan's requests: each prompt and its
// response tokens, with their lengths.
func planDigest(p credit.ReplayPlan) string {
	h := sha256.New()
	var buf []byte
	for _, r := range p.Requests {
		buf = binary.LittleEndian.AppendUint64(buf[:0], uint64(len(r.Prompt)))
		buf = append(buf, r.Prompt...)
		buf = binary.LittleEndian.AppendUint64(buf, uint64(len(r.Response)))
		for _, t := range r.Response {
			buf = binary.LittleEndian.AppendUint32(buf, uint32(t))
		}
		h.Write(buf)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// replayPlan answers POST /v1/replay-plan (docs/SERVICE.md §8).
func (s *Server) replayPlan(ctx context.Context, body []byte) ([]byte, error) {
	req, m, c, err := decodeMethod(body)
	if err != nil {
		return nil, err
	}
	if !credit.RequirementsOf(m).Replay {
		return nil, badf("method", "%s does not replay: only methods that need replay (mrtpo and its variants) have a plan", req.method)
	}
	if req.replay != nil {
		return nil, badRequest("replay", "the plan is what you answer: leave replay out here")
	}
	if err := req.needsPrompts(req.method); err != nil {
		return nil, err
	}
	plan, err := credit.PlanReplay(req.method, c, req.batch())
	if err != nil {
		return nil, badRequest("", err.Error())
	}
	return writePlan(plan)
}

// writePlan renders the plan: the distinct prompt texts, each request as
// (prompt, the first response it serves), and the replayed pairs.
func writePlan(plan credit.ReplayPlan) ([]byte, error) {
	type request struct {
		Prompt   int `json:"prompt"`
		Response int `json:"response"`
	}
	type pair struct {
		Response int `json:"response"`
		Reward   int `json:"reward"`
		Full     int `json:"full"`
		Without  int `json:"without"`
		Placebo  int `json:"placebo"`
	}
	out := struct {
		Plan     string    `json:"plan"`
		Prompts  []string  `json:"prompts"`
		Requests []request `json:"requests"`
		Pairs    []pair    `json:"pairs"`
	}{Plan: planDigest(plan), Prompts: []string{}, Requests: make([]request, len(plan.Requests)), Pairs: []pair{}}
	for i := range out.Requests {
		out.Requests[i].Response = -1
	}
	for _, p := range plan.Pairs {
		out.Pairs = append(out.Pairs, pair{p.Response, p.Reward, p.Full, p.Without, p.Placebo})
		for _, r := range []int{p.Full, p.Without, p.Placebo} {
			if r >= 0 && out.Requests[r].Response < 0 {
				out.Requests[r].Response = p.Response
			}
		}
	}
	index := map[string]int{}
	for r, q := range plan.Requests {
		j, ok := index[q.Prompt]
		if !ok {
			j = len(out.Prompts)
			index[q.Prompt] = j
			out.Prompts = append(out.Prompts, q.Prompt)
		}
		out.Requests[r].Prompt = j
	}
	return json.Marshal(out)
}
