package ifeval

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// change_case:capital_word_frequency — words in all capitals (Python's
// str.isupper on each token of nltk.word_tokenize, see wordTokens) compared
// with the threshold.
func parseCapitalWordFrequency(a *args) (Constraint, error) {
	n, err := a.int("capital_frequency")
	if err != nil {
		return Constraint{}, err
	}
	rel, err := a.relation("capital_relation")
	if err != nil {
		return Constraint{}, err
	}
	text := fmt.Sprintf("In your response, words with all capital letters should appear %s %d times.", rel, n)
	return Constraint{text: text, check: func(s string) Result {
		var caps [][2]int
		wordTokens(s, func(i, j int) {
			if isUpperStr(s[i:j]) {
				caps = append(caps, [2]int{i, j})
			}
		})
		return Result{OK: rel.holds(len(caps), n), Spans: spansOf(s, caps),
			Reason: fmt.Sprintf("%s in capitals, want %s %d", plural(len(caps), "word", "words"), rel, n)}
	}}, nil
}

// change_case:english_capital — Python's str.isupper on the whole response,
// and the response is English (detectLanguage; undetermined counts as
// English, as IFEval counts langdetect's failure as followed).
func parseEnglishCapital(a *args) (Constraint, error) {
	text := "Your entire response should be in English, and in all capital letters."
	return Constraint{text: text, check: func(s string) Result {
		return caseOf(s, isUpperStr(s), func(r rune) bool { return isLowerRune(r) || unicode.IsTitle(r) }, "lowercase")
	}}, nil
}

// change_case:english_lowercase — str.islower on the whole response, and
// the response is English.
func parseEnglishLowercase(a *args) (Constraint, error) {
	text := "Your entire response should be in English, and in all lowercase letters."
	return Constraint{text: text, check: func(s string) Result {
		return caseOf(s, isLowerStr(s), func(r rune) bool { return isUpperRune(r) || unicode.IsTitle(r) }, "capital")
	}}, nil
}

// caseOf reports a case verdict; the spans are the words holding a
// letter of the wrong case, or the whole response when the language or the
// lack of any letter decides.
func caseOf(s string, caseOK bool, wrong func(rune) bool, what string) Result {
	if !caseOK {
		var bad [][2]int
		wordTokens(s, func(i, j int) {
			if strings.IndexFunc(s[i:j], wrong) >= 0 {
				bad = append(bad, [2]int{i, j})
			}
		})
		if len(bad) == 0 {
			return Result{Spans: whole(s), Reason: "no cased letters"}
		}
		return Result{Spans: spansOf(s, bad), Reason: plural(len(bad), "word", "words") + " with " + what + " letters"}
	}
	if lang, ok := detectLanguage(s); ok && lang != "en" {
		return Result{Spans: whole(s), Reason: "language detected: " + lang}
	}
	return Result{OK: true, Spans: whole(s), Reason: "English, case as asked"}
}

// wordTokens approximates nltk.word_tokenize (the Treebank tokenizer) for
// counting capitalised words: whitespace-separated chunks are cut at
// ; @ # $ % & ? ! ( ) [ ] { } < > " and at , or : not followed by a digit,
// and at "--"; clitics are split off ("DON'T" gives "DO" and "N'T";
// 's 'm 'd 're 've 'll; cannot, gonna, gotta, wanna, gimme, lemme).
// Hyphenated words and inner periods stay in one token. f gets each
// token's byte range; tokens without a letter may be skipped.
func wordTokens(s string, f func(start, end int)) {
	emit := func(i, j int) {
		if i < j {
			splitClitic(s, i, j, f)
		}
	}
	start := -1
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		cut := isSpace(r) || strings.ContainsRune(`;@#$%&?!()[]{}<>"`, r)
		if !cut && (r == ',' || r == ':') {
			next, _ := utf8.DecodeRuneInString(s[i+n:])
			cut = i+n >= len(s) || next < '0' || next > '9'
		}
		if !cut && r == '-' && i+1 < len(s) && s[i+1] == '-' {
			if start >= 0 {
				emit(start, i)
			}
			start = -1
			i += 2
			continue
		}
		if cut {
			if start >= 0 {
				emit(start, i)
			}
			start = -1
		} else if start < 0 {
			start = i
		}
		i += n
	}
	if start >= 0 {
		emit(start, len(s))
	}
}

// clitics are the Treebank tokenizer's word endings, split off a word.
var clitics = []string{"n't", "'s", "'m", "'d", "'re", "'ve", "'ll"}

// fused are the Treebank tokenizer's two-word contractions, split at the
// given byte.
var fused = map[string]int{"cannot": 3, "gonna": 3, "gotta": 3, "wanna": 3, "gimme": 3, "lemme": 3}

func splitClitic(s string, i, j int, f func(int, int)) {
	w := s[i:j]
	if k, ok := fused[strings.ToLower(w)]; ok {
		f(i, i+k)
		f(i+k, j)
		return
	}
	for _, c := range clitics {
		if len(w) > len(c) && strings.EqualFold(w[len(w)-len(c):], c) {
			f(i, j-len(c))
			f(j-len(c), j)
			return
		}
	}
	f(i, j)
}
