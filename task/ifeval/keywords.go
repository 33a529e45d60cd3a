package ifeval

import (
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// IFEval passes keywords to re.search and re.findall as regular
// expressions. No keyword in IFEval's data holds a metacharacter, so they are
// matched here as literal text, which is what their authors meant.

// keywords:existence — every keyword occurs, case-insensitively, anywhere
// (a substring, not a whole word: IFEval's re.search(keyword, response, re.I)).
func parseExistence(a *args) (Constraint, error) {
	kws, err := a.words("keywords")
	if err != nil {
		return Constraint{}, err
	}
	kws = append([]string(nil), kws...)
	sort.Strings(kws)
	pats := runesOf(kws)
	text := fmt.Sprintf("Include the keyword %s in the response.", kws[0])
	if len(kws) > 1 {
		text = fmt.Sprintf("Include the keywords %s in the response.", listText(kws, "and"))
	}
	return Constraint{text: text, check: func(s string) Result {
		var found [][2]int
		var missing []string
		for i, p := range pats {
			if m := foldFind(s, p, false, 1); len(m) > 0 {
				found = append(found, m[0])
			} else {
				missing = append(missing, kws[i])
			}
		}
		if len(missing) > 0 {
			return Result{Spans: whole(s), Reason: "missing " + strings.Join(missing, ", ")}
		}
		sortPairs(found)
		return Result{OK: true, Spans: spansOf(s, found), Reason: "all keywords found"}
	}}, nil
}

// keywords:forbidden_words — no word occurs as a whole word,
// case-insensitively (re.search(r"\b" + word + r"\b", response, re.I)).
func parseForbidden(a *args) (Constraint, error) {
	ws, err := a.words("forbidden_words")
	if err != nil {
		return Constraint{}, err
	}
	ws = dedupSorted(ws)
	pats := runesOf(ws)
	text := fmt.Sprintf("Do not include the keyword %s in the response.", ws[0])
	if len(ws) > 1 {
		text = fmt.Sprintf("Do not include the keywords %s in the response.", listText(ws, "or"))
	}
	return Constraint{text: text, check: func(s string) Result {
		var hits [][2]int
		var used []string
		for i, p := range pats {
			m := foldFind(s, p, true, 0)
			if len(m) > 0 {
				used = append(used, ws[i])
				hits = append(hits, m...)
			}
		}
		if len(hits) == 0 {
			return Result{OK: true, Spans: whole(s), Reason: "no forbidden word"}
		}
		sortPairs(hits)
		return Result{Spans: spansOf(s, hits), Reason: "uses " + strings.Join(used, ", ")}
	}}, nil
}

// keywords:frequency — the keyword's non-overlapping case-insensitive
// occurrences (substrings) compared with the threshold.
func parseFrequency(a *args) (Constraint, error) {
	kw, err := a.nonEmpty("keyword")
	if err != nil {
		return Constraint{}, err
	}
	n, err := a.int("frequency")
	if err != nil {
		return Constraint{}, err
	}
	rel, err := a.relation("relation")
	if err != nil {
		return Constraint{}, err
	}
	pat := []rune(kw)
	text := fmt.Sprintf("In your response, the word %s should appear %s %d times.", kw, rel, n)
	return Constraint{text: text, check: func(s string) Result {
		m := foldFind(s, pat, false, 0)
		return Result{OK: rel.holds(len(m), n), Spans: spansOf(s, m),
			Reason: fmt.Sprintf("%s appears %d times, want %s %d", kw, len(m), rel, n)}
	}}, nil
}

// keywords:letter_frequency — occurrences of the letter in the lowercased
// response (Python's Counter(response.lower())[letter]). Lowercasing is per
// code point (unicode.ToLower); Python's full lowercasing of 'İ' to "i̇"
// is not reproduced.
func parseLetterFrequency(a *args) (Constraint, error) {
	l, err := a.str("letter")
	if err != nil {
		return Constraint{}, err
	}
	if utf8.RuneCountInString(l) != 1 || stripped(l) == "" {
		return Constraint{}, fmt.Errorf("letter: want one non-space character, got %q", l)
	}
	letter := unicode.ToLower([]rune(l)[0])
	n, err := a.int("let_frequency")
	if err != nil {
		return Constraint{}, err
	}
	rel, err := a.relation("let_relation")
	if err != nil {
		return Constraint{}, err
	}
	text := fmt.Sprintf("In your response, the letter %c should appear %s %d times.", letter, rel, n)
	return Constraint{text: text, check: func(s string) Result {
		var hits [][2]int
		for i := 0; i < len(s); {
			r, w := utf8.DecodeRuneInString(s[i:])
			if unicode.ToLower(r) == letter {
				hits = append(hits, [2]int{i, i + w})
			}
			i += w
		}
		return Result{OK: rel.holds(len(hits), n), Spans: spansOf(s, hits),
			Reason: fmt.Sprintf("%c appears %d times, want %s %d", letter, len(hits), rel, n)}
	}}, nil
}

func runesOf(ws []string) [][]rune {
	out := make([][]rune, len(ws))
	for i, w := range ws {
		out[i] = []rune(w)
	}
	return out
}

// dedupSorted is sorted(set(ws)), as IFEval stores forbidden words.
func dedupSorted(ws []string) []string {
	out := append([]string(nil), ws...)
	sort.Strings(out)
	k := 0
	for i, w := range out {
		if i == 0 || w != out[k-1] {
			out[k] = w
			k++
		}
	}
	return out[:k]
}
