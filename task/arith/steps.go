package arith

import "github.com/credo-rl/credo/task"

// Separator splits a response into steps for the process reward model:
// one step per line. Step byte ranges exclude it.
const Separator = "\n"

// Steps splits a response into steps with their exact labels.
//
// Every non-blank line is a step except answer lines (those that start
// with "answer:" in any case, or "####"). A step's range is its line
// without the newline and without surrounding spaces.
//
// Rule: a step is correct iff it parses as "a op b = c", a op b equals c
// exactly, and each operand is available: a number of the prompt, or the
// result of an earlier correct step. A correct step's result is thus a
// true consequence of the problem, and an error propagates: a step that
// builds on a wrong result (or on a value no step derived, as after a
// skipped step) is wrong even when its own arithmetic is right. A correct
// step need not be useful: "3 * 4 = 12" from prompt numbers is correct
// even if the problem never multiplies them. Numbers may be reused.
//
// The prompt's numbers come from its Ref; a prompt without one uses the
// integers of its text (commas allowed: "80,000").
func Steps(p task.Prompt, response string) []task.Step {
	var out []task.Step
	label(p, response, func(s, e int, _ StepLine, _ error, ok bool) bool {
		out = append(out, task.Step{Start: s, End: e, Correct: ok})
		return true
	})
	return out
}

// label walks the steps of a response in order, calling f with each step's
// range, its parse (err non-nil when malformed) and its label; f returns
// false to stop.
func label(p task.Prompt, response string, f func(start, end int, st StepLine, err error, correct bool) bool) {
	var nums []int64
	if r, ok := refOf(p); ok {
		nums = r.Numbers
	} else {
		nums = promptNumbers(p.Text)
	}
	av := newAvail(nums)
	forLines(response, func(s, e int) bool {
		line := response[s:e]
		if answerMarker(line) > 0 {
			return true
		}
		st, err := ParseStep(line)
		ok := err == nil && st.Holds() && av.has(st.A) && av.has(st.B)
		if ok {
			av.add(st.C)
		}
		return f(s, e, st, err, ok)
	})
}

// avail is the set of values a step may use. It is a slice while small
// (the usual handful of numbers) and a map beyond, so a megabyte of steps
// stays linear.
type avail struct {
	small []int64
	big   map[int64]struct{}
}

const availSmall = 32

func newAvail(nums []int64) *avail {
	a := &avail{small: make([]int64, 0, len(nums)+maxOps)}
	for _, n := range nums {
		a.add(n)
	}
	return a
}

func (a *avail) has(v int64) bool {
	if a.big != nil {
		_, ok := a.big[v]
		return ok
	}
	for _, x := range a.small {
		if x == v {
			return true
		}
	}
	return false
}

func (a *avail) add(v int64) {
	if a.has(v) {
		return
	}
	if a.big == nil && len(a.small) < availSmall {
		a.small = append(a.small, v)
		return
	}
	if a.big == nil {
		a.big = make(map[int64]struct{}, 2*availSmall)
		for _, x := range a.small {
			a.big[x] = struct{}{}
		}
		a.small = nil
	}
	a.big[v] = struct{}{}
}

// promptNumbers lists the integers of a text. Commas between digit groups
// are part of a number ("80,000" is 80000); a number with a decimal part
// ("1.5") is left out, since steps use integers only; so is one too long
// for int64.
func promptNumbers(text string) []int64 {
	var out []int64
	for i := 0; i < len(text); {
		if !isDigit(text[i]) {
			i++
			continue
		}
		var v int64
		n, j := 0, i
		for j < len(text) {
			if isDigit(text[j]) {
				v = v*10 + int64(text[j]-'0')
				n++
				j++
			} else if text[j] == ',' && j+1 < len(text) && isDigit(text[j+1]) && n > 0 {
				j++
			} else {
				break
			}
			if n > maxDigits {
				break
			}
		}
		// skip the rest of an over-long run of digits
		long := n > maxDigits
		for j < len(text) && (isDigit(text[j]) || (text[j] == ',' && j+1 < len(text) && isDigit(text[j+1]))) {
			j++
		}
		frac := j+1 < len(text) && text[j] == '.' && isDigit(text[j+1])
		if frac {
			for j++; j < len(text) && isDigit(text[j]); j++ {
			}
		}
		if !long && !frac {
			out = append(out, v)
		}
		i = j
	}
	return out
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
