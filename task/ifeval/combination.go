package ifeval

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// combination:two_responses — the response split on "******" holds exactly
// two non-empty responses that differ once stripped; an empty piece is
// allowed only first or last.
func parseTwoResponses(a *args) (Constraint, error) {
	text := "Give two different responses. Responses and only responses should be separated by 6 asterisk symbols: ******."
	return Constraint{text: text, check: func(s string) Result {
		pieces := strings.Split(s, "******")
		var valid []string
		for i, p := range pieces {
			if stripped(p) == "" {
				if i != 0 && i != len(pieces)-1 {
					return Result{Spans: whole(s), Reason: fmt.Sprintf("response %d is empty", i+1)}
				}
				continue
			}
			valid = append(valid, p)
		}
		switch {
		case len(valid) != 2:
			return Result{Spans: whole(s), Reason: fmt.Sprintf("%s, want 2", plural(len(valid), "response", "responses"))}
		case stripped(valid[0]) == stripped(valid[1]):
			return Result{Spans: whole(s), Reason: "the two responses are the same"}
		}
		return Result{OK: true, Spans: whole(s), Reason: "two different responses"}
	}}, nil
}

// combination:repeat_prompt — the stripped, lowercased response starts
// with the stripped, lowercased prompt_to_repeat. Lowercasing is per code
// point (unicode.ToLower).
func parseRepeatPrompt(a *args) (Constraint, error) {
	p, err := a.nonEmpty("prompt_to_repeat")
	if err != nil {
		return Constraint{}, err
	}
	want := []rune(p)
	text := "First repeat the request word for word without change, then give your answer. The request: " + p
	return Constraint{text: text, check: func(s string) Result {
		a, b := strip(s)
		i := a
		for k, w := range want {
			if i >= b {
				return Result{Spans: spansOf(s, [][2]int{{a, b}}), Reason: "the response is shorter than the request"}
			}
			r, n := utf8.DecodeRuneInString(s[i:b])
			if unicode.ToLower(r) != unicode.ToLower(w) {
				return Result{Spans: spansOf(s, [][2]int{{a, i + n}}),
					Reason: fmt.Sprintf("differs from the request at character %d", k+1)}
			}
			i += n
		}
		return Result{OK: true, Spans: spansOf(s, [][2]int{{a, i}}), Reason: "repeats the request"}
	}}, nil
}
