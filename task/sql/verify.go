package sql

import (
	"context"
	"fmt"
	"strings"

	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/task/tags"
)

// FormatInfo is the format reward's information block.
const FormatInfo = "Format: <think>a short plan</think><answer>one SQLite SELECT query</answer>"

// ResultInfo is the result reward's information block for a reference query.
func ResultInfo(refQuery string) string { return "Reference query: " + refQuery }

// ExecutesInfo is the executes reward's information block for the error a
// query raised ("" when it ran).
func ExecutesInfo(errMsg string) string {
	if errMsg == "" {
		return ""
	}
	return "Error: " + errMsg
}

// extractAnswer finds the query in a response. When the format is right it
// is the <answer> element's text. Otherwise it is read leniently, so that a
// format slip (a missing </answer>, no think) costs the format reward only:
// the text after the first <answer> that follows </think> (or the first
// <answer> at all), up to </answer> or the end. start is the query's byte
// offset in the response; ok is false when there is no <answer>.
func extractAnswer(resp string) (query string, start int, ok bool) {
	if parts, err := tags.Parse(resp, "think", "answer"); err == nil {
		return parts[1].Inner, parts[1].InnerStart, true
	}
	const open, close = "<answer>", "</answer>"
	from := 0
	if i := strings.Index(resp, "</think>"); i >= 0 && strings.Contains(resp[i:], open) {
		from = i
	}
	i := strings.Index(resp[from:], open)
	if i < 0 {
		return "", 0, false
	}
	start = from + i + len(open)
	if j := strings.Index(resp[start:], close); j >= 0 {
		return resp[start : start+j], start, true
	}
	return resp[start:], start, true
}

// refOf reads the prompt's reference.
func refOf(p reward.Prompt) (Ref, error) {
	switch r := p.Ref.(type) {
	case Ref:
		return r, nil
	case *Ref:
		if r != nil {
			return *r, nil
		}
	}
	return Ref{}, fmt.Errorf("sql: prompt %q carries %T, not an sql.Ref", p.ID, p.Ref)
}

func whole(start, n int) []reward.Span { return []reward.Span{{Start: start, End: start + n}} }

// formatVerifier scores the response's shape: <think>…</think> then
// <answer>…</answer>, nothing else, and a non-empty answer.
type formatVerifier struct{}

func (formatVerifier) Name() string { return "format" }

// Verify gives 1 when the format holds, with the four tags as spans;
// else 0, with the span the tag parser blames.
func (formatVerifier) Verify(_ context.Context, _ reward.Prompt, resp string) (reward.Verdict, error) {
	v := reward.Verdict{Info: FormatInfo}
	parts, err := tags.Parse(resp, "think", "answer")
	if err != nil {
		e := err.(*tags.Error)
		start, end := e.Start, e.End
		if start == end && start == len(resp) && start > 0 {
			start-- // an empty span past the end would mark no token
		}
		v.Reason = "format: " + e.Msg
		v.Spans = []reward.Span{{Start: start, End: end}}
		return v, nil
	}
	a := parts[1]
	if strings.TrimSpace(a.Inner) == "" {
		v.Reason = "format: the answer is empty"
		v.Spans = whole(a.Start, a.End-a.Start)
		return v, nil
	}
	v.Score = 1
	for _, p := range parts {
		innerEnd := p.InnerStart + len(p.Inner)
		v.Spans = append(v.Spans, reward.Span{Start: p.Start, End: p.InnerStart}, reward.Span{Start: innerEnd, End: p.End})
	}
	return v, nil
}

// executesVerifier scores whether the answer runs, within the sandbox's limits.
type executesVerifier struct{ box *sandbox }

func (executesVerifier) Name() string { return "executes" }

// Verify gives 1 when the query runs; else 0 with the error as the
// information block and, when the error names a token, that token as span.
func (v executesVerifier) Verify(ctx context.Context, _ reward.Prompt, resp string) (reward.Verdict, error) {
	q, at, ok := extractAnswer(resp)
	if !ok {
		return reward.Verdict{Reason: "executes: no <answer> element to run", Spans: whole(0, len(resp))}, nil
	}
	o, err := v.box.run(ctx, q)
	if err != nil {
		return reward.Verdict{}, fmt.Errorf("executes: %w", err)
	}
	if o.err != "" {
		return reward.Verdict{
			Info:   ExecutesInfo(o.err),
			Reason: "executes: " + o.err,
			Spans:  []reward.Span{{Start: at + o.start, End: at + o.end}},
		}, nil
	}
	return reward.Verdict{Score: 1, Spans: whole(at, len(q))}, nil
}

// resultVerifier scores whether the answer's result set is the reference's.
type resultVerifier struct{ box *sandbox }

func (resultVerifier) Name() string { return "result" }

// Verify gives 1 when the result sets are equal (see sameResult) and 0
// otherwise, including when the query does not run. The information block
// is the reference query; the spans are the parts of the query that differ
// from it (the whole query on success or when it cannot say).
func (v resultVerifier) Verify(ctx context.Context, p reward.Prompt, resp string) (reward.Verdict, error) {
	ref, err := refOf(p)
	if err != nil {
		return reward.Verdict{}, err
	}
	verdict := reward.Verdict{Info: ResultInfo(ref.Query)}
	q, at, ok := extractAnswer(resp)
	if !ok {
		verdict.Reason = "result: no <answer> element to run"
		verdict.Spans = whole(0, len(resp))
		return verdict, nil
	}
	o, err := v.box.run(ctx, q)
	if err != nil {
		return reward.Verdict{}, fmt.Errorf("result: %w", err)
	}
	if o.err != "" {
		verdict.Reason = "result: the query does not run: " + o.err
		verdict.Spans = whole(at, len(q))
		return verdict, nil
	}
	w, err := v.box.run(ctx, ref.Query)
	if err != nil {
		return reward.Verdict{}, fmt.Errorf("result: reference: %w", err)
	}
	if w.err != "" {
		if w.timeout {
			verdict.Reason = "result: the reference query timed out: " + w.err
			return verdict, nil
		}
		return reward.Verdict{}, fmt.Errorf("result: reference query %q of prompt %q fails: %s", ref.Query, p.ID, w.err)
	}
	if why := sameResult(o.cols, o.rows, w.cols, w.rows, ref.Ordered); why != "" {
		verdict.Reason = "result: " + why
		verdict.Spans = shift(diffSpans(q, ref.Query), at)
		return verdict, nil
	}
	verdict.Score = 1
	verdict.Spans = whole(at, len(q))
	return verdict, nil
}

func shift(spans []reward.Span, by int) []reward.Span {
	for i := range spans {
		spans[i].Start += by
		spans[i].End += by
	}
	return spans
}
