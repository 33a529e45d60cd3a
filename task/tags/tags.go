package tags

import (
	"fmt"
	"strings"
)

// Part is one tagged element found in a response.
type Part struct {
	Name       string
	Start, End int // byte range of the whole element, tags included
	Inner      string
	InnerStart int // byte offset of Inner in the response
}

// Error says what is wrong with a response's format and where: the byte
// range [Start, End) of the response at fault.
type Error struct {
	Msg        string
	Start, End int
}

func (e *Error) Error() string { return e.Msg }

// Parse checks that response is exactly the elements named, in order, each
// written <name>…</name>, with only whitespace between and around them. It
// returns the parts, or an *Error locating the first problem.
func Parse(response string, names ...string) ([]Part, error) {
	parts := make([]Part, 0, len(names))
	pos := skipSpace(response, 0)
	for _, name := range names {
		open, close := "<"+name+">", "</"+name+">"
		if !strings.HasPrefix(response[pos:], open) {
			end := min(len(response), pos+len(open))
			if i := strings.Index(response[pos:], open); i > 0 {
				return parts, &Error{fmt.Sprintf("unexpected text before %s", open), pos, pos + i}
			}
			return parts, &Error{fmt.Sprintf("missing %s", open), pos, end}
		}
		innerStart := pos + len(open)
		j := strings.Index(response[innerStart:], close)
		if j < 0 {
			return parts, &Error{fmt.Sprintf("missing %s", close), innerStart, len(response)}
		}
		inner := response[innerStart : innerStart+j]
		if k := strings.Index(inner, open); k >= 0 {
			return parts, &Error{fmt.Sprintf("%s opened twice", open), innerStart + k, innerStart + k + len(open)}
		}
		end := innerStart + j + len(close)
		parts = append(parts, Part{Name: name, Start: pos, End: end, Inner: inner, InnerStart: innerStart})
		pos = skipSpace(response, end)
	}
	if pos < len(response) {
		return parts, &Error{"unexpected text after the last element", pos, len(response)}
	}
	return parts, nil
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\n' || s[i] == '\t' || s[i] == '\r') {
		i++
	}
	return i
}
