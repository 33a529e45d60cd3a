package arith

import (
	"errors"
	"math"
	"strconv"
	"strings"
)

// Eq is one arithmetic step, a op b = c.
type Eq struct {
	A, B, C int64
	Op      byte // '+', '-' or '*'
}

// String writes the step the way responses must: "a op b = c".
func (e Eq) String() string {
	b := make([]byte, 0, 32)
	b = strconv.AppendInt(b, e.A, 10)
	b = append(b, ' ', e.Op, ' ')
	b = strconv.AppendInt(b, e.B, 10)
	b = append(b, " = "...)
	b = strconv.AppendInt(b, e.C, 10)
	return string(b)
}

// Value is a op b, exact. ok is false when the result overflows int64 or
// the operator is unknown: such a step can never hold.
func (e Eq) Value() (v int64, ok bool) {
	return apply(e.Op, e.A, e.B)
}

// Holds reports whether a op b equals c exactly.
func (e Eq) Holds() bool {
	v, ok := e.Value()
	return ok && v == e.C
}

// apply computes a op b with overflow detection.
func apply(op byte, a, b int64) (int64, bool) {
	switch op {
	case '+':
		r := a + b
		return r, (a^r)&(b^r) >= 0 // overflow iff both operands differ in sign from r
	case '-':
		r := a - b
		return r, (a^b)&(a^r) >= 0
	case '*':
		if a == 0 || b == 0 {
			return 0, true
		}
		r := a * b
		if (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) || r/b != a {
			return 0, false
		}
		return r, true
	}
	return 0, false
}

// StepLine is a parsed step line. Offsets are bytes within the line.
type StepLine struct {
	Eq
	Equals       int // offset of the '=' sign
	CStart, CEnd int // byte range of the result c
}

// Step parse errors are fixed values so that scanning a megabyte of bad
// lines allocates nothing per line.
var (
	ErrNumber   = errors.New("want an integer")
	ErrTooLong  = errors.New("integer longer than 18 digits")
	ErrOperator = errors.New("want an operator: + - or *")
	ErrEquals   = errors.New("want '='")
	ErrTrailing = errors.New("unexpected text after the result")
)

// maxDigits keeps every parsed integer inside int64 without overflow checks.
const maxDigits = 18

// ParseStep parses one step line, "a op b = c": three integers (each
// optionally negative, at most 18 digits), op one of + - *, and '='.
// Spaces, tabs and a carriage return may surround every token, so
// "17+25=42" is a step too. It never panics, whatever the input.
func ParseStep(line string) (StepLine, error) {
	var s StepLine
	var err error
	i := skipSpace(line, 0)
	if s.A, i, err = parseInt(line, i); err != nil {
		return s, err
	}
	i = skipSpace(line, i)
	if i >= len(line) || (line[i] != '+' && line[i] != '-' && line[i] != '*') {
		return s, ErrOperator
	}
	s.Op = line[i]
	i = skipSpace(line, i+1)
	if s.B, i, err = parseInt(line, i); err != nil {
		return s, err
	}
	i = skipSpace(line, i)
	if i >= len(line) || line[i] != '=' {
		return s, ErrEquals
	}
	s.Equals = i
	i = skipSpace(line, i+1)
	s.CStart = i
	if s.C, i, err = parseInt(line, i); err != nil {
		return s, err
	}
	s.CEnd = i
	if skipSpace(line, i) != len(line) {
		return s, ErrTrailing
	}
	return s, nil
}

// parseInt reads an optionally negative decimal integer at s[i:].
func parseInt(s string, i int) (int64, int, error) {
	neg := i < len(s) && s[i] == '-'
	if neg {
		i++
	}
	j := i
	var v int64
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		if j-i == maxDigits {
			return 0, j, ErrTooLong
		}
		v = v*10 + int64(s[j]-'0')
		j++
	}
	if j == i {
		return 0, j, ErrNumber
	}
	if neg {
		v = -v
	}
	return v, j, nil
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'
}

func skipSpace(s string, i int) int {
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return i
}

// trimRange narrows s[start:end] to exclude surrounding spaces.
func trimRange(s string, start, end int) (int, int) {
	for start < end && isSpace(s[start]) {
		start++
	}
	for end > start && isSpace(s[end-1]) {
		end--
	}
	return start, end
}

// maxNumberLen bounds the answers ParseNumber accepts, so a megabyte of
// digits is rejected at once rather than normalized.
const maxNumberLen = 64

// ParseNumber reads a final answer: an optional '-', an optional '$',
// digits that may be grouped with commas ("1,000"), an optional decimal
// part, and an optional trailing full stop. It returns the number in
// canonical form — no commas, no leading zeros, no trailing fractional
// zeros, no "-0" — so two answers are equal iff their canonical strings
// are. Anything else (including more than 64 bytes) gives ok = false.
func ParseNumber(s string) (canon string, ok bool) {
	s = strings.TrimSpace(s)
	s = strings.TrimSuffix(s, ".")
	if s == "" || len(s) > maxNumberLen {
		return "", false
	}
	i, neg := 0, false
	if s[i] == '-' {
		neg = true
		i++
	}
	if i < len(s) && s[i] == '$' {
		i++
	}
	var intPart, frac []byte
digits:
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			intPart = append(intPart, c)
		case c == ',' && len(intPart) > 0 && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9':
			// a grouping comma, between two digits
		default:
			break digits
		}
	}
	if i < len(s) && s[i] == '.' {
		i++
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			frac = append(frac, s[i])
		}
		if len(frac) == 0 {
			return "", false
		}
	}
	if i != len(s) || len(intPart)+len(frac) == 0 {
		return "", false
	}
	for len(intPart) > 1 && intPart[0] == '0' {
		intPart = intPart[1:]
	}
	if len(intPart) == 0 {
		intPart = []byte{'0'}
	}
	for len(frac) > 0 && frac[len(frac)-1] == '0' {
		frac = frac[:len(frac)-1]
	}
	out := string(intPart)
	if len(frac) > 0 {
		out += "." + string(frac)
	}
	if neg && out != "0" {
		out = "-" + out
	}
	return out, true
}

// answerMarker returns the length of the marker that opens an answer line
// ("answer:" in any case, or GSM8K's "####"), or 0 when line is not one.
// line must already be trimmed of surrounding spaces.
func answerMarker(line string) int {
	const m = "answer:"
	if len(line) >= len(m) && strings.EqualFold(line[:len(m)], m) {
		return len(m)
	}
	if strings.HasPrefix(line, "####") {
		return 4
	}
	return 0
}

// wellFormedAnswer reports whether a trimmed line is exactly the format's
// answer line: lower-case "answer:", optional spaces, an integer.
func wellFormedAnswer(line string) bool {
	rest, ok := strings.CutPrefix(line, "answer:")
	if !ok {
		return false
	}
	i := skipSpace(rest, 0)
	_, j, err := parseInt(rest, i)
	return err == nil && j == len(rest)
}

// forLines calls f with the byte range of every line of s, the newline
// separator excluded, trimmed of surrounding spaces; blank lines are
// skipped. f returns false to stop.
func forLines(s string, f func(start, end int) bool) {
	for start := 0; start <= len(s); {
		end := strings.IndexByte(s[start:], '\n')
		if end < 0 {
			end = len(s)
		} else {
			end += start
		}
		a, b := trimRange(s, start, end)
		if a < b && !f(a, b) {
			return
		}
		start = end + 1
	}
}

// lastAnswerLine finds the last answer line of s, scanning from the end.
// It returns the trimmed line's range and the range of its first
// whitespace-separated field after the marker (the number).
func lastAnswerLine(s string) (line, num [2]int, ok bool) {
	for end := len(s); end >= 0; {
		start := strings.LastIndexByte(s[:end], '\n') + 1
		a, b := trimRange(s, start, end)
		if m := answerMarker(s[a:b]); m > 0 {
			n0 := skipSpace(s, a+m)
			n1 := n0
			for n1 < b && !isSpace(s[n1]) {
				n1++
			}
			return [2]int{a, b}, [2]int{n0, n1}, true
		}
		end = start - 1
	}
	return line, num, false
}
