package judge

import "iter"

// maxCandidates bounds how many opening braces objects tries, so a
// pathological answer ("{{{{…") costs O(maxCandidates·n) rather than O(n²).
const maxCandidates = 32

// objects yields the balanced {…} substrings of s, by start position, for at
// most maxCandidates opening braces. Braces inside JSON strings (with their
// escapes) do not count, so a quote holding "}" does not end an object. The
// yielded text is balanced, not necessarily valid JSON: the caller decodes it.
func objects(s string) iter.Seq[string] {
	return func(yield func(string) bool) {
		tried := 0
		for i := 0; i < len(s) && tried < maxCandidates; i++ {
			if s[i] != '{' {
				continue
			}
			tried++
			if end := objectEnd(s, i); end > 0 && !yield(s[i:end]) {
				return
			}
		}
	}
}

// objectEnd returns the end (exclusive) of the balanced object opening at
// s[start] == '{', or -1 when the text ends first.
func objectEnd(s string, start int) int {
	depth, inString := 0, false
	for i := start; i < len(s); i++ {
		c := s[i]
		if inString {
			switch c {
			case '\\':
				i++ // the escaped byte cannot end the string
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return -1
}
