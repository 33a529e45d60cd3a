package ifeval

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// startend:end_checker — the response, stripped of whitespace and then of
// double quotes, lowercased, ends with the lowercased phrase. The spans are
// the response's last characters, as many as the phrase has.
func parseEnd(a *args) (Constraint, error) {
	phrase, err := a.nonEmpty("end_phrase")
	if err != nil {
		return Constraint{}, err
	}
	want := []rune(phrase)
	text := fmt.Sprintf("Finish your response with this exact phrase: %s No other words should follow this phrase.", phrase)
	return Constraint{text: text, check: func(s string) Result {
		a, b := strip(s)
		for a < b && s[a] == '"' {
			a++
		}
		for b > a && s[b-1] == '"' {
			b--
		}
		j := b
		for k := len(want) - 1; k >= 0; k-- {
			if j <= a {
				return Result{Spans: spansOf(s, [][2]int{{a, b}}), Reason: "shorter than the end phrase"}
			}
			r, n := utf8.DecodeLastRuneInString(s[a:j])
			if unicode.ToLower(r) != unicode.ToLower(want[k]) {
				start := j - n
				for ; k > 0 && start > a; k-- {
					_, n := utf8.DecodeLastRuneInString(s[a:start])
					start -= n
				}
				return Result{Spans: spansOf(s, [][2]int{{start, b}}), Reason: "does not end with " + phrase}
			}
			j -= n
		}
		return Result{OK: true, Spans: spansOf(s, [][2]int{{j, b}}), Reason: "ends with " + phrase}
	}}, nil
}

// startend:quotation — the stripped response is at least two characters
// long and starts and ends with a double quote.
func parseQuotation(a *args) (Constraint, error) {
	text := "Wrap your entire response with double quotation marks."
	return Constraint{text: text, check: func(s string) Result {
		a, b := strip(s)
		_, first := utf8.DecodeRuneInString(s[a:b])
		_, last := utf8.DecodeLastRuneInString(s[a:b])
		ends := spansOf(s, [][2]int{{a, a + first}, {b - last, b}})
		if utf8.RuneCountInString(s[a:b]) < 2 {
			return Result{Spans: ends, Reason: "too short to be quoted"}
		}
		if s[a] != '"' || s[b-1] != '"' {
			return Result{Spans: ends, Reason: "not wrapped in double quotes"}
		}
		return Result{OK: true, Spans: ends, Reason: "wrapped in double quotes"}
	}}, nil
}

// punctuation:no_comma — no ',' (U+002C) anywhere; other commas such as
// '，' are allowed, as in IFEval.
func parseNoComma(a *args) (Constraint, error) {
	text := "In your entire response, refrain from the use of any commas."
	return Constraint{text: text, check: func(s string) Result {
		var hits [][2]int
		for i := 0; i < len(s); {
			j := strings.IndexByte(s[i:], ',')
			if j < 0 {
				break
			}
			hits = append(hits, [2]int{i + j, i + j + 1})
			i += j + 1
		}
		if len(hits) == 0 {
			return Result{OK: true, Spans: whole(s), Reason: "no commas"}
		}
		return Result{Spans: spansOf(s, hits), Reason: plural(len(hits), "comma", "commas")}
	}}, nil
}
