package service

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/service/wire"
	"github.com/credo-rl/credo/task"
)

// verifyRequest is a decoded POST /v1/verify body.
type verifyRequest struct {
	format  string
	tf      taskFields
	rewards []string // nil: the default selection
	items   []verifyItem
}

type verifyItem struct {
	record    []byte // a record format's record, as sent
	promptID  string
	hasID     bool
	responses []string
}

func decodeVerify(body []byte) (verifyRequest, error) {
	var req verifyRequest
	total := 0
	err := decodeObject(body, func(d *wire.Decoder, key string) error {
		if ok, err := req.tf.read(d, key); ok {
			return err
		}
		var err error
		switch key {
		case "format":
			req.format, err = d.Str()
		case "rewards":
			req.rewards, err = d.Strings(maxRewards)
			if req.rewards == nil && err == nil {
				req.rewards = []string{}
			}
		case "items":
			err = d.Array(maxResponses, func(int) error {
				it, err := decodeItem(d, &total)
				req.items = append(req.items, it)
				return err
			})
		default:
			return d.Unknown(key, "format, task, seed, difficulty, rewards, items")
		}
		return err
	})
	return req, err
}

// decodeItem reads {"record" | "prompt_id", "responses"}; total counts
// the request's responses against maxResponses.
func decodeItem(d *wire.Decoder, total *int) (verifyItem, error) {
	var it verifyItem
	err := d.Members(func(key string) error {
		var err error
		switch key {
		case "record":
			it.record, err = d.Raw()
		case "prompt_id":
			it.promptID, err = d.Str()
			it.hasID = true
		case "responses":
			err = d.Array(maxResponses, func(int) error {
				if *total++; *total > maxResponses {
					return d.TooLargef("more than %d responses in the request", maxResponses)
				}
				s, err := d.StrView() // the body outlives the request's verdicts
				if err == nil && len(s) > maxVerifyText {
					err = d.TooLargef("a response of %d bytes: at most %d (4 for each of the %d tokens a response may have)", len(s), maxVerifyText, maxTokens)
				}
				it.responses = append(it.responses, s)
				return err
			})
		default:
			return d.Unknown(key, "record, prompt_id, responses")
		}
		return err
	})
	return it, err
}

// verify answers POST /v1/verify (docs/SERVICE.md §6).
func (s *Server) verify(ctx context.Context, body []byte) ([]byte, error) {
	req, err := decodeVerify(body)
	if err != nil {
		return nil, err
	}
	prompts, vs, release, err := s.verifyInputs(req)
	if err != nil {
		return nil, err
	}
	defer release()
	sel, err := selectRewards(req.rewards, vs)
	if err != nil {
		return nil, err
	}
	chosen, judged := make([]reward.Verifier, len(sel)), make([]bool, len(sel))
	for i, k := range sel {
		chosen[i], judged[i] = vs[k], k >= len(vs)-len(s.o.Judges) // the judges come last
	}
	verdicts, failures, dropped, err := s.verdicts(ctx, chosen, judged, prompts, req.items)
	if err != nil {
		return nil, err
	}
	if req.rewards == nil { // the default: the rewards that apply somewhere, and every judge
		keep := applying(verdicts, len(chosen), len(vs)-len(s.o.Judges))
		chosen, verdicts, failures, dropped = pick(chosen, keep), pick(verdicts, keep), pick(failures, keep), pick(dropped, keep)
	}
	s.countVerdicts(chosen, verdicts, failures)
	return writeVerify(prompts, req, chosen, verdicts, failures, dropped), nil
}

// capSpans bounds a verdict's spans to at most limit: spans that touch or
// overlap with the same strength and effect are merged first (the same
// bytes, fewer spans), then those past the first limit, by position, are
// dropped. It returns how many were dropped; a
// verdict within the limit is left as it is.
func capSpans(v *reward.Verdict, limit int) int {
	if len(v.Spans) <= limit {
		return 0
	}
	sp := v.Spans
	if !slices.IsSortedFunc(sp, byStart) { // verifiers mostly give them in order: no copy then
		sp = slices.Clone(sp)
		slices.SortStableFunc(sp, byStart)
	}
	// A new array of at most limit spans, never a reslice: the verifier's
	// (4 MB for 131,072 commas) must not stay reachable through the verdict.
	kept := make([]reward.Span, 0, limit)
	n := 0 // merged spans past the cap
	var last reward.Span
	for i, s := range sp {
		if i > 0 && s.Start <= last.End && s.Strength == last.Strength && s.Effect == last.Effect {
			last.End = max(last.End, s.End)
			continue
		}
		if i > 0 {
			if len(kept) < limit {
				kept = append(kept, last)
			} else {
				n++
			}
		}
		last = s
	}
	if len(kept) < limit {
		kept = append(kept, last)
	} else {
		n++
	}
	v.Spans = kept
	return n
}

func byStart(a, b reward.Span) int { return a.Start - b.Start }

// verifyInputs resolves the request's format into its prompts and the
// rewards that may judge them (the format's, then the judges).
func (s *Server) verifyInputs(req verifyRequest) ([]task.Prompt, []reward.Verifier, func(), error) {
	if req.format == "" {
		return nil, nil, nil, badRequest("format", "required: one of the formats of /v1/tasks")
	}
	f, err := s.format(req.format)
	if err != nil {
		return nil, nil, nil, err
	}
	if len(req.items) == 0 {
		return nil, nil, nil, badRequest("items", "required: at least one item")
	}
	release := func() {}
	var t task.Task
	vs := f.rewards
	if f.reader == nil {
		if req.tf.name == "" {
			return nil, nil, nil, badRequest("task", `required with format "task": the task whose prompts prompt_id names`)
		}
		if t, release, err = s.tasks.get(req.tf.name, req.tf.seed, req.tf.difficulty); err != nil {
			return nil, nil, nil, err
		}
		vs = t.Rewards()
	} else if req.tf.given {
		return nil, nil, nil, badf("task", "task, seed and difficulty go with format %q only (records carry their own prompts)", formatTask)
	}
	vs = append(slices.Clip(vs), s.o.Judges...)
	prompts := make([]task.Prompt, len(req.items))
	for j, it := range req.items {
		var err error
		switch {
		case f.reader == nil && !it.hasID:
			err = badf(fmt.Sprintf("items[%d].prompt_id", j), "required with format %q", formatTask)
		case f.reader == nil:
			if prompts[j], err = promptByID(t, it.promptID); err != nil {
				err = badRequest(fmt.Sprintf("items[%d].prompt_id", j), err.Error())
			}
		case it.record == nil:
			err = badf(fmt.Sprintf("items[%d].record", j), "required with format %q: %s", f.name, recordFields[f.name])
		default:
			if prompts[j], err = f.reader.FromRecord(it.record); err != nil {
				err = badRequest(fmt.Sprintf("items[%d].record", j), err.Error())
			} else if prompts[j].ID == "" {
				prompts[j].ID = fmt.Sprintf("%s-%d", f.name, j)
			}
		}
		if err != nil {
			release()
			return nil, nil, nil, err
		}
	}
	return prompts, vs, release, nil
}

// selectRewards maps the request's reward names onto indices of vs (nil
// names: all of them, in order).
func selectRewards(names []string, vs []reward.Verifier) ([]int, error) {
	if names == nil {
		out := make([]int, len(vs))
		for k := range out {
			out[k] = k
		}
		return out, nil
	}
	if len(names) == 0 {
		return nil, badRequest("rewards", "an empty list: name at least one reward, or leave the field out")
	}
	all := verifierNames(vs)
	out := make([]int, len(names))
	for i, n := range names {
		k := slices.Index(all, n)
		if k < 0 {
			return nil, badf(fmt.Sprintf("rewards[%d]", i), "unknown reward %q (this format's: %s)", n, strings.Join(all, ", "))
		}
		if slices.Contains(out[:i], k) {
			return nil, badf(fmt.Sprintf("rewards[%d]", i), "reward %q named twice", n)
		}
		out[i] = k
	}
	return out, nil
}

// verdicts runs every verifier on every response, VerifyWorkers responses
// at a time over all the server's requests (s.verifying). A judge's verdict gets VerifyTimeout (judgeOne); a task's
// verifiers run in the worker itself (ruleOne): they are linear in the
// response (the body bounds it) or bounded by their own limits (the sql
// sandbox's per-query time limit), and a goroutine and a timer per verdict
// were a third of an IFEval request's time. verdicts[k][r] and
// failures[k][r] are indexed by the request's responses in order.
//
// Each verdict's spans are capped (capSpans) as soon as it is made, so
// that a request holds at most maxVerdictSpans spans a verdict, not every
// comma of every response; dropped[k][r] counts those left out.
func (s *Server) verdicts(ctx context.Context, vs []reward.Verifier, judged []bool, prompts []task.Prompt, items []verifyItem) (verdicts [][]reward.Verdict, failures [][]string, dropped [][]int, err error) {
	type job struct{ item, resp int }
	var jobs []job
	for j, it := range items {
		for g := range it.responses {
			jobs = append(jobs, job{j, g})
		}
	}
	verdicts, failures, dropped = make([][]reward.Verdict, len(vs)), make([][]string, len(vs)), make([][]int, len(vs))
	for k := range vs {
		verdicts[k], failures[k], dropped[k] = make([]reward.Verdict, len(jobs)), make([]string, len(jobs)), make([]int, len(jobs))
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(s.o.VerifyWorkers, len(jobs)) {
		wg.Go(func() {
			for r := int(next.Add(1) - 1); r < len(jobs) && ctx.Err() == nil; r = int(next.Add(1) - 1) {
				select { // a verdict slot, shared with the other requests
				case s.verifying <- struct{}{}:
				case <-ctx.Done():
					return
				}
				jb := jobs[r]
				for k, v := range vs {
					one := ruleOne
					if judged[k] {
						one = judgeOne
					}
					vd, err := one(ctx, v, prompts[jb.item], items[jb.item].responses[jb.resp], s.o.VerifyTimeout)
					dropped[k][r] = capSpans(&vd, maxVerdictSpans)
					verdicts[k][r] = vd
					if err != nil {
						failures[k][r] = err.Error()
					}
				}
				<-s.verifying
			}
		})
	}
	wg.Wait()
	return verdicts, failures, dropped, ctx.Err()
}

// judgeOne is one verdict within limit. A verifier that fails, panics or
// runs past the limit gives score 0 and the reason, keeping its block;
// one that ignores its context is left to finish on its own goroutine.
func judgeOne(ctx context.Context, v reward.Verifier, p reward.Prompt, resp string, limit time.Duration) (reward.Verdict, error) {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	type answer struct {
		vd  reward.Verdict
		err error
	}
	ch := make(chan answer, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				ch <- answer{err: fmt.Errorf("%s panicked: %v", v.Name(), r)}
			}
		}()
		vd, err := v.Verify(ctx, p, resp)
		ch <- answer{vd, err}
	}()
	var a answer
	select {
	case a = <-ch:
	case <-ctx.Done():
		a.err = fmt.Errorf("%s gave no verdict within %v: %w", v.Name(), limit, ctx.Err())
	}
	if a.err == nil && !finiteVerdict(a.vd) {
		a.err = fmt.Errorf("%s gave the score %v", v.Name(), a.vd.Score)
	}
	if a.err != nil {
		return reward.Verdict{Info: a.vd.Info, Reason: a.err.Error()}, a.err
	}
	return a.vd, nil
}

// ruleOne is one verdict of a task's verifier, run here: a panic or an
// error gives score 0 and the reason, keeping the verdict's block.
func ruleOne(ctx context.Context, v reward.Verifier, p reward.Prompt, resp string, _ time.Duration) (vd reward.Verdict, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s panicked: %v", v.Name(), r)
		}
		if err == nil && !finiteVerdict(vd) {
			err = fmt.Errorf("%s gave the score %v", v.Name(), vd.Score)
		}
		if err != nil {
			vd = reward.Verdict{Info: vd.Info, Reason: err.Error()}
		}
	}()
	return v.Verify(ctx, p, resp)
}

func finiteVerdict(v reward.Verdict) bool {
	if math.IsNaN(v.Score) || math.IsInf(v.Score, 0) {
		return false
	}
	for _, sp := range v.Spans {
		if math.IsNaN(sp.Strength) || math.IsInf(sp.Strength, 0) {
			return false
		}
	}
	return true
}

// applying keeps the rewards of the first nFormat that some verdict does
// not skip, and every judge after them.
func applying(verdicts [][]reward.Verdict, k, nFormat int) []bool {
	keep := make([]bool, k)
	for kk := range k {
		keep[kk] = kk >= nFormat || slices.ContainsFunc(verdicts[kk], func(v reward.Verdict) bool { return !v.Skip })
	}
	return keep
}

func pick[T any](xs []T, keep []bool) []T {
	var out []T
	for i, x := range xs {
		if keep[i] {
			out = append(out, x)
		}
	}
	return out
}

func (s *Server) countVerdicts(vs []reward.Verifier, verdicts [][]reward.Verdict, failures [][]string) {
	n, bad := make([]int, len(vs)), make([]int, len(vs))
	for k := range vs {
		n[k] = len(verdicts[k])
		for _, f := range failures[k] {
			if f != "" {
				bad[k]++
			}
		}
	}
	s.m.verified(verifierNames(vs), n, bad)
}

// writeVerify renders the verify answer: items in order, each with its
// responses' K verdicts.
func writeVerify(prompts []task.Prompt, req verifyRequest, vs []reward.Verifier, verdicts [][]reward.Verdict, failures [][]string, dropped [][]int) []byte {
	var w wire.Writer
	w.Raw(`{"rewards":`)
	w.Strs(verifierNames(vs))
	w.Raw(`,"weights":[`)
	for k, v := range vs {
		if k > 0 {
			w.Byte(',')
		}
		w.Float(weightOf(v))
	}
	w.Raw(`],"items":[`)
	r := 0
	for j, it := range req.items {
		if j > 0 {
			w.Byte(',')
		}
		w.Raw("{")
		w.StrField("prompt_id", prompts[j].ID, true)
		w.StrField("prompt", prompts[j].Text, false)
		w.StrField("replay_base", task.ReplayBase(prompts[j]), false)
		w.Raw(`,"responses":[`)
		for g := range it.responses {
			if g > 0 {
				w.Byte(',')
			}
			w.Raw(`{"verdicts":[`)
			for k := range vs {
				if k > 0 {
					w.Byte(',')
				}
				writeVerdict(&w, verdicts[k][r], failures[k][r], dropped[k][r])
			}
			w.Raw("]}")
			r++
		}
		w.Raw("]}")
	}
	w.Raw("]}")
	return w.Bytes()
}

func writeVerdict(w *wire.Writer, v reward.Verdict, failure string, dropped int) {
	w.Raw(`{"score":`)
	w.Float(v.Score)
	w.StrField("info", v.Info, false)
	w.Raw(`,"spans":[`)
	for i, sp := range v.Spans {
		if i > 0 {
			w.Byte(',')
		}
		w.Raw(`{"start":`)
		w.Int(sp.Start)
		w.IntField("end", sp.End)
		if sp.Strength != 0 {
			w.Key("strength", false)
			w.Float(sp.Strength)
		}
		switch sp.Effect {
		case reward.Raised:
			w.Raw(`,"effect":"+"`)
		case reward.Lowered:
			w.Raw(`,"effect":"-"`)
		}
		w.Raw("}")
	}
	w.Raw("]")
	if dropped > 0 {
		w.IntField("spans_dropped", dropped)
	}
	w.StrField("reason", v.Reason, false)
	w.Key("skip", false)
	w.Bool(v.Skip)
	if failure != "" {
		w.StrField("error", failure, false)
	}
	w.Raw("}")
}
