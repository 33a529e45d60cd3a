package ifeval

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Hand-written scanners for IFEval's regular expressions whose Python \s
// and \d classes make Go's regexp slow (a few MB/s). Each finds the same
// leftmost non-overlapping matches as Python's re.findall, in linear time;
// testdata/python_golden.jsonl checks them against Python.

// spaceBefore is the width of the whitespace rune ending at p, if it lies
// in s[from:p], else 0.
func spaceBefore(s string, from, p int) int {
	if p <= from {
		return 0
	}
	r, n := utf8.DecodeLastRuneInString(s[from:p])
	if isSpace(r) {
		return n
	}
	return 0
}

// spaceAt is the width of the whitespace rune at p, else 0.
func spaceAt(s string, p int) int {
	if p >= len(s) {
		return 0
	}
	r, n := utf8.DecodeRuneInString(s[p:])
	if isSpace(r) {
		return n
	}
	return 0
}

// dividers finds \s?\*\*\*\s?.
func dividers(s string) [][2]int {
	var out [][2]int
	for pos := 0; pos < len(s); {
		i := strings.Index(s[pos:], "***")
		if i < 0 {
			break
		}
		p := pos + i
		start := p - spaceBefore(s, pos, p)
		end := p + 3
		end += spaceAt(s, end)
		out = append(out, [2]int{start, end})
		pos = end
	}
	return out
}

// sectionMarks finds \s?SPLITER\s?\d+\s? (\d: Unicode decimal digits).
func sectionMarks(s, spliter string) [][2]int {
	var out [][2]int
	for pos, from := 0, 0; from < len(s); {
		i := strings.Index(s[from:], spliter)
		if i < 0 {
			break
		}
		p := from + i
		q := p + len(spliter)
		q += spaceAt(s, q)
		digits := q
		for digits < len(s) {
			r, n := utf8.DecodeRuneInString(s[digits:])
			if !unicode.IsDigit(r) {
				break
			}
			digits += n
		}
		if digits == q {
			from = p + 1
			continue
		}
		end := digits + spaceAt(s, digits)
		out = append(out, [2]int{p - spaceBefore(s, pos, p), end})
		pos, from = end, end
	}
	return out
}

// bulletLines finds (?m)^\s*\*[^\*].*$ (star) or (?m)^\s*-.*$. A span
// starts at the marker, not at the line start (the count is what matters;
// as in Python, \s* may cross blank lines and [^\*] may be a newline).
func bulletLines(s string, star bool) [][2]int {
	var out [][2]int
	for l := 0; l < len(s); {
		q := l
		for q < len(s) {
			n := spaceAt(s, q)
			if n == 0 {
				break
			}
			q += n
		}
		// Every line start in [l, q] reaches the same q, so one test
		// decides them all.
		end := -1
		switch {
		case q >= len(s):
		case star && s[q] == '*':
			if q+1 < len(s) && s[q+1] != '*' {
				_, n := utf8.DecodeRuneInString(s[q+1:])
				end = lineEnd(s, q+1+n)
			}
		case !star && s[q] == '-':
			end = lineEnd(s, q+1)
		}
		if end >= 0 {
			out = append(out, [2]int{q, end})
			l = nextLine(s, end)
			if end == len(s) {
				break
			}
			continue
		}
		l = nextLine(s, q)
	}
	return out
}

// lineEnd is the index of the next '\n' at or after p, or len(s).
func lineEnd(s string, p int) int {
	if p >= len(s) {
		return len(s)
	}
	if i := strings.IndexByte(s[p:], '\n'); i >= 0 {
		return p + i
	}
	return len(s)
}

// nextLine is the start of the first line beginning after p (a line
// beginning exactly at p+1 when s[p] is '\n'), or len(s).
func nextLine(s string, p int) int {
	e := lineEnd(s, p)
	if e >= len(s) {
		return len(s)
	}
	return e + 1
}

// highlights finds \*[^\n\*]*\* (double: \*\*[^\n\*]*\*\*).
func highlightMarks(s string, double bool) [][2]int {
	var out [][2]int
	open := "*"
	if double {
		open = "**"
	}
	for pos := 0; pos < len(s); {
		i := strings.Index(s[pos:], open)
		if i < 0 {
			break
		}
		p := pos + i
		body := p + len(open)
		j := strings.IndexAny(s[body:], "\n*")
		if j < 0 {
			break
		}
		j += body
		switch {
		case s[j] == '\n':
			pos = j + 1
		case !double:
			out = append(out, [2]int{p, j + 1})
			pos = j + 1
		case j+1 < len(s) && s[j+1] == '*':
			out = append(out, [2]int{p, j + 2})
			pos = j + 2
		default:
			pos = p + 1
		}
	}
	return out
}

// titleMarks finds <<[^\n]+>> (greedy: to the last ">>" of the line).
func titleMarks(s string) [][2]int {
	var out [][2]int
	for pos := 0; pos < len(s); {
		i := strings.Index(s[pos:], "<<")
		if i < 0 {
			break
		}
		p := pos + i
		e := lineEnd(s, p)
		if p+3 > e {
			pos = e + 1
			continue
		}
		j := strings.LastIndex(s[p+3:e], ">>")
		if j < 0 {
			pos = e + 1
			continue
		}
		end := p + 3 + j + 2
		out = append(out, [2]int{p, end})
		pos = end
	}
	return out
}
