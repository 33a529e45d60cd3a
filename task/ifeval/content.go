package ifeval

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// detectable_content:number_placeholders — at least n matches of \[.*?\]:
// a '[' closed by the next ']' on the same line.
func parsePlaceholders(a *args) (Constraint, error) {
	n, err := a.int("num_placeholders")
	if err != nil {
		return Constraint{}, err
	}
	text := fmt.Sprintf("The response must contain at least %d placeholders represented by square brackets, such as [address].", n)
	return Constraint{text: text, check: func(s string) Result {
		m := placeholders(s)
		return Result{OK: len(m) >= n, Spans: spansOf(s, m),
			Reason: fmt.Sprintf("%s, want at least %d", plural(len(m), "placeholder", "placeholders"), n)}
	}}, nil
}

// placeholders finds \[.*?\] in linear time: when no ']' closes a '[' before
// the end of its line, no later '[' on that line can be closed either.
func placeholders(s string) [][2]int {
	var out [][2]int
	for i := 0; i < len(s); {
		j := strings.IndexByte(s[i:], '[')
		if j < 0 {
			break
		}
		open := i + j
		rest := s[open+1:]
		k := strings.IndexAny(rest, "]\n")
		switch {
		case k < 0:
			return out
		case rest[k] == '\n':
			i = open + 1 + k + 1
		default:
			out = append(out, [2]int{open, open + 1 + k + 1})
			i = open + 1 + k + 1
		}
	}
	return out
}

// detectable_content:postscript — the lowercased response contains the
// marker: "p.p.s" for P.P.S (p\.\s?p\.\s?s), "p.s." for P.S. (p\.\s?s\.),
// and any other marker as literal text, case-insensitively (IFEval would
// read it as a regular expression).
func parsePostscript(a *args) (Constraint, error) {
	marker, err := a.nonEmpty("postscript_marker")
	if err != nil {
		return Constraint{}, err
	}
	var find func(string) (int, int, bool)
	switch marker {
	case "P.P.S":
		find = func(s string) (int, int, bool) { return findLetters(s, "p.p.s") }
	case "P.S.":
		find = func(s string) (int, int, bool) { return findLetters(s, "p.s.") }
	default:
		pat := []rune(marker)
		find = func(s string) (int, int, bool) {
			m := foldFind(s, pat, false, 1)
			if len(m) == 0 {
				return 0, 0, false
			}
			return m[0][0], m[0][1], true
		}
	}
	text := fmt.Sprintf("At the end of your response, please explicitly add a postscript starting with %s", marker)
	return Constraint{text: text, check: func(s string) Result {
		i, j, ok := find(s)
		if !ok {
			return Result{Spans: whole(s), Reason: "no postscript starting with " + marker}
		}
		if k := strings.IndexByte(s[j:], '\n'); k >= 0 {
			j += k
		} else {
			j = len(s)
		}
		return Result{OK: true, Spans: spansOf(s, [][2]int{{i, j}}), Reason: "postscript found"}
	}}, nil
}

// findLetters finds a marker such as "p.p.s" case-insensitively, where one
// whitespace character may follow each period.
func findLetters(s, marker string) (int, int, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] != marker[0] && s[i] != marker[0]-'a'+'A' {
			continue
		}
		if j, ok := matchLetters(s, i, marker); ok {
			return i, j, true
		}
	}
	return 0, 0, false
}

func matchLetters(s string, i int, marker string) (int, bool) {
	for k := 0; k < len(marker); k++ {
		c := marker[k]
		if i >= len(s) {
			return 0, false
		}
		if c == '.' {
			if s[i] != '.' {
				return 0, false
			}
			i++
			if k+1 < len(marker) && i < len(s) {
				if r, n := utf8.DecodeRuneInString(s[i:]); isSpace(r) {
					i += n
				}
			}
			continue
		}
		if s[i] != c && s[i] != c-'a'+'A' {
			return 0, false
		}
		i++
	}
	return i, true
}
