package arith

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/task"
)

// FormatBlock is the format reward's information block.
const FormatBlock = "Format: one step per line, written `a op b = c` with op one of + - *, " +
	"where a and b are numbers of the problem or results of earlier steps; " +
	"then a last line `answer: N`."

// AnswerBlock is the answer reward's information block for a reference
// answer: "Reference answer: 118".
func AnswerBlock(answer string) string { return "Reference answer: " + answer }

// maxSpans bounds the spans of one verdict: beyond it, the last span is
// stretched over the rest, so a megabyte of bad lines costs credit
// assignment no more than 64 spans do.
const maxSpans = 64

// spanList collects spans in increasing order, merging beyond maxSpans.
type spanList []reward.Span

func (l *spanList) add(start, end int) {
	if len(*l) < maxSpans {
		*l = append(*l, reward.Span{Start: start, End: end})
		return
	}
	last := &(*l)[maxSpans-1]
	last.Start, last.End = min(last.Start, start), max(last.End, end)
}

// errAnswerLine says an answer line is not exactly the format's one.
var errAnswerLine = errors.New("want exactly `answer: N`, N an integer")

// AnswerVerifier is the answer reward: 1 when the response's last answer
// line ("answer: N", or GSM8K's "#### N") holds the reference answer. The
// answer line is the last line that begins, after spaces, with "answer:"
// in any case or with "####"; lines after it are allowed. The number is
// its first field after the marker, read by ParseNumber ("answer:
// 1,000." is 1000).
//
// Info is AnswerBlock(reference). Spans: the answer's number; on failure
// also the result of the first wrong step (see Steps), where the error
// began. Work is linear in the response; ctx is checked on entry.
type AnswerVerifier struct{}

// Name is "answer".
func (AnswerVerifier) Name() string { return "answer" }

// Verify scores one response.
func (AnswerVerifier) Verify(ctx context.Context, p task.Prompt, response string) (reward.Verdict, error) {
	if err := ctx.Err(); err != nil {
		return reward.Verdict{}, fmt.Errorf("arith answer %s: %w", p.ID, err)
	}
	ref, ok := refOf(p)
	if !ok {
		return reward.Verdict{}, fmt.Errorf("arith answer %s: the prompt has no arith.Ref (got %T)", p.ID, p.Ref)
	}
	v := reward.Verdict{Info: AnswerBlock(ref.Answer)}
	var spans spanList
	addFirstWrong := func() {
		label(p, response, func(s, e int, st StepLine, err error, correct bool) bool {
			if correct {
				return true
			}
			if err == nil {
				spans.add(s+st.CStart, s+st.CEnd)
			} else {
				spans.add(s, e) // the malformed line
			}
			return false
		})
	}
	_, num, found := lastAnswerLine(response)
	if !found {
		v.Reason = "no answer line"
		addFirstWrong()
		v.Spans = spans
		return v, nil
	}
	got, ok := ParseNumber(response[num[0]:num[1]])
	switch {
	case !ok:
		v.Reason = fmt.Sprintf("the answer %q is not a number", clip(response[num[0]:num[1]]))
	case got == ref.Answer:
		v.Score = 1
		v.Spans = []reward.Span{{Start: num[0], End: num[1]}}
		return v, nil
	default:
		v.Reason = fmt.Sprintf("answer %s, reference %s", got, ref.Answer)
	}
	addFirstWrong()
	if len(spans) > 0 && spans[0].Start > num[0] { // keep spans in response order
		spans = append(spanList{{Start: num[0], End: num[1]}}, spans...)
	} else {
		spans.add(num[0], num[1])
	}
	v.Spans = spans
	return v, nil
}

// FormatVerifier is the format reward: 1 when every non-blank line is a
// well-formed step "a op b = c" or the single answer line "answer: N" (N
// an integer), there is at least one step, and the answer line is last.
// Whether the steps are right is the answer reward's and the PRM's
// business, not this one's.
//
// Info is FormatBlock. Spans on failure: the malformed lines, steps after
// the answer line, earlier answer lines, the last line when the answer
// line is missing, the answer line when no step precedes it. On success:
// the whole answer line and every '=' sign. GSM8K prompts are free text,
// so the reward does not apply to them: the verdict has Skip set.
type FormatVerifier struct{}

// Name is "format".
func (FormatVerifier) Name() string { return "format" }

// Verify scores one response.
func (FormatVerifier) Verify(ctx context.Context, p task.Prompt, response string) (reward.Verdict, error) {
	if err := ctx.Err(); err != nil {
		return reward.Verdict{}, fmt.Errorf("arith format %s: %w", p.ID, err)
	}
	v := reward.Verdict{Info: FormatBlock}
	if ref, ok := refOf(p); ok && ref.GSM8K {
		v.Skip = true
		v.Reason = "the format reward does not apply to free-text GSM8K prompts"
		return v, nil
	}
	var (
		bad, equals    spanList
		nBad, nSteps   int
		nAnswers, late int // answer lines; steps after an answer line
		firstBad       string
		answer, last   [2]int
	)
	forLines(response, func(s, e int) bool {
		line := response[s:e]
		last = [2]int{s, e}
		if wellFormedAnswer(line) {
			if nAnswers > 0 { // an earlier answer line is not the final one
				bad.add(answer[0], answer[1])
			}
			nAnswers++
			answer = [2]int{s, e}
			return true
		}
		st, err := ParseStep(line)
		if answerMarker(line) > 0 { // "Answer: 5", "answer: five", "#### 5"
			err = errAnswerLine
		}
		if err != nil {
			if nBad == 0 {
				firstBad = fmt.Sprintf("malformed line %q: %v", clip(line), err)
			}
			nBad++
			bad.add(s, e)
			return true
		}
		nSteps++
		if nAnswers > 0 {
			late++
			bad.add(s, e)
		}
		equals.add(s+st.Equals, s+st.Equals+1)
		return true
	})
	var why []string
	if nBad > 0 {
		why = append(why, fmt.Sprintf("%d malformed line(s), first: %s", nBad, firstBad))
	}
	switch {
	case nAnswers == 0:
		why = append(why, "no answer line")
		if last[1] > 0 && len(bad) == 0 {
			bad.add(last[0], last[1])
		}
	case nAnswers > 1:
		why = append(why, fmt.Sprintf("%d answer lines", nAnswers))
	}
	if late > 0 {
		why = append(why, fmt.Sprintf("%d step(s) after the answer line", late))
	}
	if nSteps == 0 {
		why = append(why, "no step")
		if nAnswers > 0 && len(bad) == 0 {
			bad.add(answer[0], answer[1])
		}
	}
	if len(why) > 0 {
		v.Reason = strings.Join(why, "; ")
		v.Spans = bad
		return v, nil
	}
	v.Score = 1
	v.Spans = append(equals, reward.Span{Start: answer[0], End: answer[1]})
	return v, nil
}

// clip shortens a quoted piece of response for a Reason.
func clip(s string) string {
	const n = 40
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// render writes steps one per line, then "answer: N".
func render(steps []SolStep, answer string) string {
	var b strings.Builder
	for _, s := range steps {
		b.WriteString(s.Eq.String())
		b.WriteByte('\n')
	}
	b.WriteString("answer: ")
	b.WriteString(answer)
	return b.String()
}
