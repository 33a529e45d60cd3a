package ifeval

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// The detectable_format checkers find the matches of IFEval's regular
// expressions with the scanners of scan.go.

// detectable_format:number_bullet_lists — exactly n lines matching
// ^\s*\*[^\*].*$ or ^\s*-.*$ (multiline). As in IFEval, \s* may cross blank
// lines and a line of dashes counts as a bullet.
func parseBullets(a *args) (Constraint, error) {
	n, err := a.int("num_bullets")
	if err != nil {
		return Constraint{}, err
	}
	text := fmt.Sprintf("Your answer must contain exactly %d bullet points, markdown lines starting with \"* \".", n)
	return Constraint{text: text, check: func(s string) Result {
		m := append(bulletLines(s, true), bulletLines(s, false)...)
		sortPairs(m)
		return Result{OK: len(m) == n, Spans: spansOf(s, m),
			Reason: fmt.Sprintf("%s, want exactly %d", plural(len(m), "bullet point", "bullet points"), n)}
	}}, nil
}

// constrainedOptions are IFEval's fixed answer options.
var constrainedOptions = []string{"My answer is yes.", "My answer is no.", "My answer is maybe."}

// detectable_format:constrained_response — the stripped response contains
// one of the options (case-sensitive).
func parseConstrainedResponse(a *args) (Constraint, error) {
	text := `Answer with one of the following options: "My answer is yes.", "My answer is no.", "My answer is maybe."`
	return Constraint{text: text, check: func(s string) Result {
		a, b := strip(s)
		for _, o := range constrainedOptions {
			if i := strings.Index(s[a:b], o); i >= 0 {
				return Result{OK: true, Spans: spansOf(s, [][2]int{{a + i, a + i + len(o)}}), Reason: "contains " + o}
			}
		}
		return Result{Spans: whole(s), Reason: "contains none of the options"}
	}}, nil
}

// detectable_format:number_highlighted_sections — at least n highlights:
// matches of \*[^\n\*]*\* and, counted again, of \*\*[^\n\*]*\*\*, each
// with text other than whitespace inside.
func parseHighlights(a *args) (Constraint, error) {
	n, err := a.int("num_highlights")
	if err != nil {
		return Constraint{}, err
	}
	text := fmt.Sprintf("Highlight at least %d sections in your answer with markdown, i.e. *highlighted section*.", n)
	return Constraint{text: text, check: func(s string) Result {
		var hits [][2]int
		for _, m := range highlightMarks(s, false) {
			if stripped(strings.Trim(s[m[0]:m[1]], "*")) != "" {
				hits = append(hits, [2]int{m[0], m[1]})
			}
		}
		for _, m := range highlightMarks(s, true) {
			if stripped(s[m[0]+2:m[1]-2]) != "" {
				hits = append(hits, [2]int{m[0], m[1]})
			}
		}
		got := len(hits)
		sortPairs(hits)
		return Result{OK: got >= n, Spans: spansOf(s, hits),
			Reason: fmt.Sprintf("%s, want at least %d", plural(got, "highlight", "highlights"), n)}
	}}, nil
}

// detectable_format:multiple_sections — at least n section markers:
// matches of \s?SPLITER\s?\d+\s? (case-sensitive; the number of pieces
// re.split makes, minus one).
func parseSections(a *args) (Constraint, error) {
	sp, err := a.nonEmpty("section_spliter")
	if err != nil {
		return Constraint{}, err
	}
	n, err := a.int("num_sections")
	if err != nil {
		return Constraint{}, err
	}
	text := fmt.Sprintf("Your response must have %d sections. Mark the beginning of each section with %s X, such as: %s 1.", n, sp, sp)
	return Constraint{text: text, check: func(s string) Result {
		m := sectionMarks(s, sp)
		return Result{OK: len(m) >= n, Spans: spansOf(s, m),
			Reason: fmt.Sprintf("%s, want at least %d", plural(len(m), "section", "sections"), n)}
	}}, nil
}

// detectable_format:json_format — the stripped response, without a leading
// ```json, ```Json, ```JSON or ``` and a trailing ``` (removed in that
// order, as IFEval does), is one JSON value. Python's json.loads also
// accepts NaN and Infinity, which this RFC 8259 check rejects.
func parseJSONFormat(a *args) (Constraint, error) {
	text := "Entire output should be wrapped in JSON format. You can use markdown ticks such as ```."
	return Constraint{text: text, check: func(s string) Result {
		v := stripped(s)
		for _, p := range []string{"```json", "```Json", "```JSON", "```"} {
			v = strings.TrimPrefix(v, p)
		}
		v = stripped(strings.TrimSuffix(v, "```"))
		if json.Valid([]byte(v)) {
			return Result{OK: true, Spans: whole(s), Reason: "valid JSON"}
		}
		return Result{Spans: whole(s), Reason: "not valid JSON"}
	}}, nil
}

// detectable_format:title — a match of <<[^\n]+>> with text inside once
// the angle brackets and whitespace are stripped.
func parseTitle(a *args) (Constraint, error) {
	text := "Your answer must contain a title, wrapped in double angular brackets, such as <<poem of joy>>."
	return Constraint{text: text, check: func(s string) Result {
		var titles [][2]int
		for _, m := range titleMarks(s) {
			inner := strings.TrimRight(strings.TrimLeft(s[m[0]:m[1]], "<"), ">")
			if stripped(inner) != "" {
				titles = append(titles, [2]int{m[0], m[1]})
			}
		}
		if len(titles) == 0 {
			return Result{Spans: whole(s), Reason: "no <<title>>"}
		}
		return Result{OK: true, Spans: spansOf(s, titles), Reason: "title " + s[titles[0][0]:titles[0][1]]}
	}}, nil
}

func sortPairs(m [][2]int) {
	slices.SortFunc(m, func(a, b [2]int) int { return a[0] - b[0] })
}
