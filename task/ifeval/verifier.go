package ifeval

import (
	"context"
	"fmt"
	"strings"

	"github.com/credo-rl/credo/reward"
)

// Verifier judges the constraints of one kind in a prompt's Ref. A prompt
// without that kind gets Verdict{Skip: true}. Otherwise the score is 1
// when every constraint of the kind holds and 0 when one fails; Info is
// the constraints' text, Spans those of the failing constraints (of all of
// them on success), Reason what the checkers found.
type Verifier struct {
	kind string
}

// NewVerifier returns the verifier of a kind: a task reward name such as
// "words", or an IFEval instruction id for prompts made by FromRecord.
func NewVerifier(kind string) *Verifier { return &Verifier{kind: kind} }

// Name is the kind.
func (v *Verifier) Name() string { return v.kind }

// Verify checks the response against the prompt's constraints of the
// verifier's kind. A prompt whose Ref is not a *Ref is an error.
func (v *Verifier) Verify(ctx context.Context, p reward.Prompt, response string) (reward.Verdict, error) {
	if err := ctx.Err(); err != nil {
		return reward.Verdict{}, fmt.Errorf("verify %s: %w", v.kind, err)
	}
	ref, ok := p.Ref.(*Ref)
	if !ok || ref == nil {
		return reward.Verdict{}, fmt.Errorf("verify %s: prompt %q has Ref %T, want *ifeval.Ref", v.kind, p.ID, p.Ref)
	}
	var texts, reasons []string
	var okSpans, badSpans []reward.Span
	failed := false
	for _, it := range ref.Items {
		if it.Kind != v.kind {
			continue
		}
		texts = append(texts, it.Constraint.Text())
		r := it.Constraint.Check(response)
		reasons = append(reasons, r.Reason)
		if r.OK {
			okSpans = append(okSpans, r.Spans...)
		} else {
			failed = true
			badSpans = append(badSpans, r.Spans...)
		}
	}
	if len(texts) == 0 {
		return reward.Verdict{Skip: true, Reason: fmt.Sprintf("prompt has no %s constraint", v.kind)}, nil
	}
	d := reward.Verdict{Score: 1, Info: strings.Join(texts, " "), Spans: okSpans, Reason: strings.Join(reasons, "; ")}
	if failed {
		d.Score, d.Spans = 0, badSpans
	}
	return d, nil
}
