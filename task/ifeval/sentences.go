package ifeval

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// countSentences approximates the sentence count of NLTK's Punkt tokenizer
// for English, which IFEval uses, by a documented rule:
//
//   - the text is cut into whitespace-separated tokens;
//   - a token ends a sentence when, after closing quotes and brackets are
//     removed from its end, it ends in '?' or '!', or in a single '.' not
//     preceded by a common abbreviation (Mr, Dr, St, e.g …), a single letter
//     (an initial), a number (a list item "1.") or a word with an inner
//     period (U.S.);
//   - a token ending in an ellipsis ("..") ends a sentence only when the
//     next token starts with an uppercase letter;
//   - text after the last sentence end is one more sentence;
//   - newlines alone never end a sentence (Punkt's behaviour too).
//
// Punkt's learned abbreviation list and its orthographic heuristics (how
// often a word is seen capitalized mid-sentence) are not reproduced, so
// counts can differ on abbreviations outside the list.
func countSentences(s string) int {
	n := 0
	pending := false      // text since the last sentence end
	prevEllipsis := false // the previous token ended in an ellipsis
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		if isSpace(r) {
			i += w
			continue
		}
		j := i
		for j < len(s) {
			r, w := utf8.DecodeRuneInString(s[j:])
			if isSpace(r) {
				break
			}
			j += w
		}
		tok := s[i:j]
		if prevEllipsis {
			prevEllipsis = false
			if startsUpper(tok) {
				n++
				pending = false
			}
		}
		pending = true
		switch endKind(tok) {
		case endSentence:
			n++
			pending = false
		case endEllipsis:
			prevEllipsis = true
		}
		i = j
	}
	if pending {
		n++
	}
	return n
}

type end int

const (
	endNone end = iota
	endSentence
	endEllipsis
)

// closers may follow a sentence's final punctuation.
const closers = `"')]}”’»`

func endKind(tok string) end {
	core := strings.TrimRight(tok, closers)
	if core == "" {
		return endNone
	}
	last := core[len(core)-1]
	switch last {
	case '?', '!':
		return endSentence
	case '.':
	default:
		return endNone
	}
	if strings.HasSuffix(core, "..") {
		return endEllipsis
	}
	w := strings.TrimLeft(core[:len(core)-1], `"'([{“‘«`)
	switch {
	case w == "":
		return endSentence
	case strings.Contains(w, "."):
		return endNone
	case utf8.RuneCountInString(w) == 1 && unicode.IsLetter([]rune(w)[0]):
		return endNone
	case allDigits(w):
		return endNone
	case abbreviations[strings.ToLower(w)]:
		return endNone
	}
	return endSentence
}

// abbreviations are common English abbreviations written with a period.
var abbreviations = map[string]bool{
	"mr": true, "mrs": true, "ms": true, "dr": true, "prof": true, "st": true,
	"jr": true, "sr": true, "vs": true, "inc": true, "ltd": true, "co": true,
	"corp": true, "fig": true, "mt": true, "gen": true, "gov": true, "lt": true,
	"col": true, "capt": true, "sgt": true, "approx": true, "dept": true,
	"jan": true, "feb": true, "aug": true, "sept": true, "oct": true, "nov": true, "dec": true,
}

func allDigits(w string) bool {
	for _, r := range w {
		if r < '0' || r > '9' {
			return false
		}
	}
	return w != ""
}

func startsUpper(tok string) bool {
	for _, r := range tok {
		if unicode.IsLetter(r) {
			return unicode.IsUpper(r)
		}
		if isWord(r) {
			return false
		}
	}
	return false
}
