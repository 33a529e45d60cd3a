package tokenizer

import (
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/dlclark/regexp2"
)

// splitter cuts text into pre-tokens, calling fn with the byte range of each
// in order; the ranges tile text.
type splitter interface {
	split(text string, fn func(start, end int))
}

// Split patterns with a hand-written equivalent (the Hugging Face files
// spell them exactly like this).
const (
	// patternQwen2 is Qwen2/Qwen3's pattern: cl100k's with single digits.
	patternQwen2 = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	// patternLlama3 is Llama-3's (and cl100k's): digits in groups of up to three.
	patternLlama3 = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	// patternGPT2 is the one ByteLevel applies itself when use_regex is true.
	patternGPT2 = `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`
)

// splitterFor returns the hand-written splitter for a known pattern, or one
// running the pattern through regexp2 (a backtracking engine with
// look-around, like the Oniguruma engine Hugging Face uses).
func splitterFor(pattern string) (splitter, error) {
	switch pattern {
	case patternQwen2:
		return cl100kSplitter{maxDigits: 1}, nil
	case patternLlama3:
		return cl100kSplitter{maxDigits: 3}, nil
	case patternGPT2:
		return gpt2Splitter{}, nil
	}
	return newRegexSplitter(pattern)
}

// Character classes of the patterns above.
const (
	clOther   = iota // not \s, \p{L} or \p{N}
	clLetter         // \p{L}
	clNumber         // \p{N}
	clSpace          // \s other than \r and \n
	clNewline        // \r or \n
)

var asciiClass = func() (t [128]uint8) {
	for c := 0; c < 128; c++ {
		t[c] = classOf(rune(c))
	}
	return t
}()

// classOf classifies r as Oniguruma does: \s is Unicode White_Space (which is
// what unicode.IsSpace tests), \p{L} and \p{N} the general categories.
func classOf(r rune) uint8 {
	switch {
	case r == '\r' || r == '\n':
		return clNewline
	case unicode.IsSpace(r):
		return clSpace
	case unicode.IsLetter(r):
		return clLetter
	case unicode.IsNumber(r):
		return clNumber
	}
	return clOther
}

// classAt returns the class and width of the character at text[i]. An
// invalid UTF-8 byte counts as one character of class other (as U+FFFD,
// a symbol, would).
func classAt(text string, i int) (uint8, int) {
	if c := text[i]; c < utf8.RuneSelf {
		return asciiClass[c], 1
	}
	r, w := utf8.DecodeRuneInString(text[i:])
	return classOf(r), w
}

// classAtOr returns classAt, or clNone past the end of text.
func classAtOr(text string, i int) uint8 {
	if i >= len(text) {
		return clNone
	}
	c, _ := classAt(text, i)
	return c
}

const clNone = 255

// scanClass returns the end of the run of characters of class c from i.
func scanClass(text string, i int, c uint8) int {
	for i < len(text) {
		if b := text[i]; b < utf8.RuneSelf { // fast path for ASCII
			if asciiClass[b] != c {
				break
			}
			i++
			continue
		}
		k, w := classAt(text, i)
		if k != c {
			break
		}
		i += w
	}
	return i
}

// scanSpace returns the end of the run of white space (\s) from i.
func scanSpace(text string, i int) int {
	for i < len(text) {
		k, w := classAt(text, i)
		if k != clSpace && k != clNewline {
			break
		}
		i += w
	}
	return i
}

// contraction returns the length of 's|'t|'re|'ve|'m|'ll|'d at text[i]
// (where text[i] is an apostrophe) or 0. With fold, letters match case-insensitively
// under Unicode simple case folding (so 's also matches 'S and 'ſ).
func contraction(text string, i int, fold bool) int {
	rest := text[i+1:]
	r1, w1 := utf8.DecodeRuneInString(rest)
	if w1 == 0 {
		return 0
	}
	if fold {
		r1 = foldContraction(r1)
	}
	switch r1 {
	case 's', 't', 'm', 'd':
		return 1 + w1
	case 'r', 'v', 'l':
		r2, w2 := utf8.DecodeRuneInString(rest[w1:])
		if fold {
			r2 = foldContraction(r2)
		}
		if (r1 == 'r' || r1 == 'v') && r2 == 'e' || r1 == 'l' && r2 == 'l' {
			return 1 + w1 + w2
		}
	}
	return 0
}

func foldContraction(r rune) rune {
	switch {
	case r >= 'A' && r <= 'Z':
		return r + ('a' - 'A')
	case r == 'ſ': // U+017F LATIN SMALL LETTER LONG S folds to s
		return 's'
	}
	return r
}

// whitespaceTail matches \s*[\r\n]+|\s+(?!\S)|\s+ at i, where text[i] is
// white space; newlines says whether \s*[\r\n]+ is one of the alternatives.
func whitespaceTail(text string, i int, newlines bool) int {
	j := scanSpace(text, i)
	if newlines {
		// \s*[\r\n]+: \s* backs off to the last newline of the run.
		for k := j - 1; k >= i; k-- {
			if text[k] == '\r' || text[k] == '\n' {
				return k + 1
			}
		}
	}
	// \s+(?!\S): the whole run at the end of text, else all of it but its
	// last character (which the next pre-token then starts with).
	if j == len(text) {
		return j
	}
	_, w := utf8.DecodeLastRuneInString(text[i:j])
	if j-w > i {
		return j - w
	}
	return j // \s+
}

// cl100kSplitter implements patternQwen2 (maxDigits 1) and patternLlama3
// (maxDigits 3):
//
//	(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,maxDigits}|
//	 ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
// Every character is matched by some alternative, so the matches tile text.
type cl100kSplitter struct{ maxDigits int }

func (s cl100kSplitter) split(text string, fn func(start, end int)) {
	for i := 0; i < len(text); {
		j := s.next(text, i)
		fn(i, j)
		i = j
	}
}

// next returns the end of the match starting at i, trying the alternatives
// in order as the regex engine does.
func (s cl100kSplitter) next(text string, i int) int {
	if text[i] == '\'' {
		if n := contraction(text, i, true); n > 0 {
			return i + n
		}
	}
	c, w := classAt(text, i)
	switch c {
	case clLetter:
		return scanClass(text, i+w, clLetter)
	case clOther, clSpace:
		if classAtOr(text, i+w) == clLetter { // [^\r\n\p{L}\p{N}]\p{L}+
			return scanClass(text, i+w, clLetter)
		}
	case clNumber:
		j := i + w
		for n := 1; n < s.maxDigits && j < len(text); n++ {
			k, w := classAt(text, j)
			if k != clNumber {
				break
			}
			j += w
		}
		return j
	}
	start := i
	if text[i] == ' ' && classAtOr(text, i+1) == clOther {
		start = i + 1
		c = clOther
	}
	if c == clOther { // ' ?[^\s\p{L}\p{N}]+[\r\n]*'
		j := scanClass(text, start, clOther)
		for j < len(text) && (text[j] == '\r' || text[j] == '\n') {
			j++
		}
		return j
	}
	return whitespaceTail(text, i, true)
}

// gpt2Splitter implements patternGPT2:
//
//	's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
type gpt2Splitter struct{}

func (gpt2Splitter) split(text string, fn func(start, end int)) {
	for i := 0; i < len(text); {
		j := gpt2Next(text, i)
		fn(i, j)
		i = j
	}
}

func gpt2Next(text string, i int) int {
	if text[i] == '\'' {
		if n := contraction(text, i, false); n > 0 {
			return i + n
		}
	}
	start := i
	if text[i] == ' ' && i+1 < len(text) {
		if k := classAtOr(text, i+1); k == clLetter || k == clNumber || k == clOther {
			start = i + 1
		}
	}
	c, _ := classAt(text, start)
	if c == clLetter || c == clNumber || c == clOther {
		return scanClass(text, start, c)
	}
	return whitespaceTail(text, i, false)
}

// regexSplitter splits with an arbitrary pattern (Hugging Face's Split with
// behavior Isolated): each match is a pre-token, and so is each stretch
// between matches.
type regexSplitter struct {
	re *regexp2.Regexp
}

// regexTimeout bounds one regexp2 match: a pattern that backtracks
// catastrophically on some text must not hang Encode.
const regexTimeout = 2 * time.Second

func newRegexSplitter(pattern string) (*regexSplitter, error) {
	re, err := regexp2.Compile(pattern, regexp2.None)
	if err != nil {
		return nil, err
	}
	re.MatchTimeout = regexTimeout
	return &regexSplitter{re: re}, nil
}

// split runs the regex over the text's characters (regexp2 counts in runes;
// an invalid UTF-8 byte is one rune, U+FFFD, as in classAt) and converts
// rune positions back to bytes. If the engine fails (a time-out), the rest of
// the text becomes one pre-token.
func (s *regexSplitter) split(text string, fn func(start, end int)) {
	runes := make([]rune, 0, len(text))
	byteAt := make([]int, 0, len(text)+1) // byte offset of each rune, then len(text)
	for i := 0; i < len(text); {
		r, w := utf8.DecodeRuneInString(text[i:])
		runes = append(runes, r)
		byteAt = append(byteAt, i)
		i += w
	}
	byteAt = append(byteAt, len(text))
	prev := 0 // byte offset up to which pre-tokens were emitted
	m, err := s.re.FindRunesMatch(runes)
	for err == nil && m != nil {
		a, b := byteAt[m.Index], byteAt[m.Index+m.Length]
		if b > a {
			if a > prev {
				fn(prev, a)
			}
			fn(a, b)
			prev = b
		}
		m, err = s.re.FindNextMatch(m)
	}
	if prev < len(text) {
		fn(prev, len(text))
	}
}

// seqSplitter applies splitters one after another, each to the pieces of
// the previous one (a Hugging Face Sequence of pre-tokenizers).
type seqSplitter []splitter

func (q seqSplitter) split(text string, fn func(start, end int)) {
	q.rec(0, text, 0, fn)
}

func (q seqSplitter) rec(k int, text string, base int, fn func(start, end int)) {
	if k == len(q) {
		fn(base, base+len(text))
		return
	}
	q[k].split(text, func(a, b int) { q.rec(k+1, text[a:b], base+a, fn) })
}

// wholeSplitter leaves the text in one piece (no Split pre-tokenizer).
type wholeSplitter struct{}

func (wholeSplitter) split(text string, fn func(start, end int)) {
	if text != "" {
		fn(0, len(text))
	}
}
