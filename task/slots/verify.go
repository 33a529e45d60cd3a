package slots

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/task"
)

// Verifier is reward slot<Slot+1>: line Slot of the response must be
// exactly "a+b=c" with the prompt's pair Slot and its sum.
//
// Info is Block(Slot, pair). Spans: the sum's digits of that line when the
// line has the form "a+b=c" (that is where the decision is made, right or
// wrong); the whole line when it does not; none when the response has no
// such line. Work is linear in the response.
//
// Loose (difficulty strict=0) accepts any correct sum on line k: the
// operands need not be the prompt's, so nothing has to be copied from the
// prompt and a small policy learns the format in minutes.
type Verifier struct {
	Slot  int
	Loose bool
}

// Name is "slot1", "slot2", …
func (v Verifier) Name() string { return "slot" + strconv.Itoa(v.Slot+1) }

// Block is slot k's (0-based) information block: "Reference 2: 7+2=9".
func Block(k int, p Pair) string { return fmt.Sprintf("Reference %d: %s", k+1, p.Line()) }

// Verify scores one response.
func (v Verifier) Verify(ctx context.Context, p task.Prompt, response string) (reward.Verdict, error) {
	if err := ctx.Err(); err != nil {
		return reward.Verdict{}, fmt.Errorf("slots %s: %w", p.ID, err)
	}
	ref, ok := refOf(p)
	if !ok {
		return reward.Verdict{}, fmt.Errorf("slots %s: the prompt has no slots.Ref (got %T)", p.ID, p.Ref)
	}
	if v.Slot < 0 || v.Slot >= len(ref.Pairs) {
		return reward.Verdict{}, fmt.Errorf("slots %s: reward %s but the prompt has %d slots", p.ID, v.Name(), len(ref.Pairs))
	}
	pair := ref.Pairs[v.Slot]
	out := reward.Verdict{Info: Block(v.Slot, pair)}
	start, end, ok := lineRange(response, v.Slot)
	if !ok {
		out.Reason = fmt.Sprintf("the response has no line %d", v.Slot+1)
		return out, nil
	}
	line := response[start:end]
	a, b, c, cStart, ok := parseLine(line)
	if !ok {
		out.Spans = []reward.Span{{Start: start, End: end}}
		if end > start {
			out.Reason = fmt.Sprintf("line %d is not a+b=c", v.Slot+1)
		} else {
			out.Reason = fmt.Sprintf("line %d is empty", v.Slot+1)
			out.Spans = nil
		}
		return out, nil
	}
	out.Spans = []reward.Span{{Start: start + cStart, End: end}}
	switch {
	case !v.Loose && (a != pair.A || b != pair.B):
		out.Reason = fmt.Sprintf("line %d adds %d+%d, the prompt asks %d+%d", v.Slot+1, a, b, pair.A, pair.B)
	case c != a+b:
		out.Reason = fmt.Sprintf("line %d: %d+%d is %d, not %d", v.Slot+1, a, b, a+b, c)
	default:
		out.Score = 1
	}
	return out, nil
}

// parseLine reads "a+b=c" with a, b and c non-negative decimal numbers in
// canonical form (at most 6 digits, no leading zero) and nothing else on the
// line; cStart is the byte offset of c.
func parseLine(line string) (a, b, c, cStart int, ok bool) {
	plus := strings.IndexByte(line, '+')
	eq := strings.IndexByte(line, '=')
	if plus < 0 || eq < plus {
		return 0, 0, 0, 0, false
	}
	num := func(s string) (int, bool) {
		if len(s) == 0 || len(s) > 6 || (len(s) > 1 && s[0] == '0') {
			return 0, false
		}
		for i := 0; i < len(s); i++ {
			if s[i] < '0' || s[i] > '9' {
				return 0, false
			}
		}
		n, err := strconv.Atoi(s)
		return n, err == nil
	}
	var okA, okB, okC bool
	a, okA = num(line[:plus])
	b, okB = num(line[plus+1 : eq])
	c, okC = num(line[eq+1:])
	return a, b, c, eq + 1, okA && okB && okC
}
