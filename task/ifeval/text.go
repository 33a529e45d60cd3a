package ifeval

import (
	"unicode"
	"unicode/utf8"

	"github.com/credo-rl/credo/reward"
)

// This file holds the text primitives the checkers share. IFEval runs on
// Python str, so they follow Python's definitions (str.isspace, the Unicode
// \w class, re.IGNORECASE) rather than Go's ASCII ones. Invalid UTF-8 bytes
// decode as U+FFFD, one byte each, which is neither space nor word.

// isSpace is Python's str.isspace: Go's unicode.IsSpace plus the information
// separators U+001C–U+001F, which Python also treats as whitespace.
func isSpace(r rune) bool {
	return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f)
}

// isWord is Python's \w for str: letters, numbers and the underscore.
// Combining marks are not word characters, as in Python.
func isWord(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r)
}

// strip returns the byte range of s without leading and trailing whitespace
// (Python's str.strip()).
func strip(s string) (start, end int) {
	start, end = 0, len(s)
	for start < end {
		r, n := utf8.DecodeRuneInString(s[start:])
		if !isSpace(r) {
			break
		}
		start += n
	}
	for end > start {
		r, n := utf8.DecodeLastRuneInString(s[start:end])
		if !isSpace(r) {
			break
		}
		end -= n
	}
	return start, end
}

// stripped is s[strip(s)].
func stripped(s string) string {
	a, b := strip(s)
	return s[a:b]
}

// wordRuns calls f with the byte range of each maximal run of word
// characters: the tokens of nltk's RegexpTokenizer(r"\w+"), which IFEval
// uses to count words.
func wordRuns(s string, f func(start, end int)) {
	start := -1
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if isWord(r) {
			if start < 0 {
				start = i
			}
		} else if start >= 0 {
			f(start, i)
			start = -1
		}
		i += n
	}
	if start >= 0 {
		f(start, len(s))
	}
}

// countWords is IFEval's count_words.
func countWords(s string) int {
	n := 0
	wordRuns(s, func(int, int) { n++ })
	return n
}

// equalFold reports whether two runes match under re.IGNORECASE, taken as
// Unicode simple case folding (so 'k', 'K' and the Kelvin sign all match).
func equalFold(a, b rune) bool {
	if a == b {
		return true
	}
	if a < utf8.RuneSelf && b < utf8.RuneSelf {
		return lowerASCII(a) == lowerASCII(b)
	}
	for f := unicode.SimpleFold(a); f != a; f = unicode.SimpleFold(f) {
		if f == b {
			return true
		}
	}
	return false
}

func lowerASCII(r rune) rune {
	if 'A' <= r && r <= 'Z' {
		return r + 'a' - 'A'
	}
	return r
}

// foldFind returns the byte ranges of the non-overlapping case-insensitive
// occurrences of pat in s, leftmost first, as re.findall(pat, s, re.I)
// would for a pattern without metacharacters. With bounded, an occurrence
// must also sit between \b word boundaries. max > 0 stops after that many.
// Cost: O(len(s) × len(pat)).
func foldFind(s string, pat []rune, bounded bool, max int) [][2]int {
	var out [][2]int
	if len(pat) == 0 {
		return nil
	}
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !equalFold(r, pat[0]) {
			i += n
			continue
		}
		j := i + n
		ok := true
		last := r
		for _, p := range pat[1:] {
			if j >= len(s) {
				ok = false
				break
			}
			q, m := utf8.DecodeRuneInString(s[j:])
			if !equalFold(q, p) {
				ok = false
				break
			}
			last = q
			j += m
		}
		if ok && bounded && !(boundaryBefore(s, i, r) && boundaryAfter(s, j, last)) {
			ok = false
		}
		if !ok {
			i += n
			continue
		}
		out = append(out, [2]int{i, j})
		if max > 0 && len(out) >= max {
			return out
		}
		i = j
	}
	return out
}

// boundaryBefore reports a \b at byte i of s, whose rune is first.
func boundaryBefore(s string, i int, first rune) bool {
	prev := false
	if i > 0 {
		r, _ := utf8.DecodeLastRuneInString(s[:i])
		prev = isWord(r)
	}
	return prev != isWord(first)
}

// boundaryAfter reports a \b at byte j of s, whose preceding rune is last.
func boundaryAfter(s string, j int, last rune) bool {
	next := false
	if j < len(s) {
		r, _ := utf8.DecodeRuneInString(s[j:])
		next = isWord(r)
	}
	return isWord(last) != next
}

// whole is the span of the entire response, for decisions that rest on all
// of it (counts, and the absence of something anywhere).
func whole(s string) []reward.Span { return []reward.Span{{Start: 0, End: len(s)}} }

// spansOf turns byte ranges into spans, merging ranges that touch, or the
// whole response when there are none.
func spansOf(s string, ranges [][2]int) []reward.Span {
	if len(ranges) == 0 {
		return whole(s)
	}
	out := make([]reward.Span, 0, len(ranges))
	for _, r := range ranges {
		if k := len(out) - 1; k >= 0 && out[k].End >= r[0] {
			out[k].End = max(out[k].End, r[1])
			continue
		}
		out = append(out, reward.Span{Start: r[0], End: r[1]})
	}
	return out
}

// isUpperStr is Python's str.isupper: at least one cased character and no
// lowercase or titlecase ones.
func isUpperStr(s string) bool {
	cased := false
	for _, r := range s {
		if isLowerRune(r) || unicode.IsTitle(r) {
			return false
		}
		if isUpperRune(r) {
			cased = true
		}
	}
	return cased
}

// isLowerStr is Python's str.islower: at least one cased character and no
// uppercase or titlecase ones.
func isLowerStr(s string) bool {
	cased := false
	for _, r := range s {
		if isUpperRune(r) || unicode.IsTitle(r) {
			return false
		}
		if isLowerRune(r) {
			cased = true
		}
	}
	return cased
}

// isLowerRune and isUpperRune are Unicode's Lowercase and Uppercase
// properties, which Python's islower and isupper use (ª and º count as
// lowercase, Ⓐ as uppercase).
func isLowerRune(r rune) bool {
	return unicode.IsLower(r) || unicode.Is(unicode.Other_Lowercase, r)
}

func isUpperRune(r rune) bool {
	return unicode.IsUpper(r) || unicode.Is(unicode.Other_Uppercase, r)
}
