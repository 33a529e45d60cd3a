package ifeval

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// length_constraints:number_words — \w+ tokens compared with the threshold.
func parseWords(a *args) (Constraint, error) {
	n, err := a.int("num_words")
	if err != nil {
		return Constraint{}, err
	}
	rel, err := a.relation("relation")
	if err != nil {
		return Constraint{}, err
	}
	text := fmt.Sprintf("Answer with %s %d words.", rel, n)
	return Constraint{text: text, check: func(s string) Result {
		got := countWords(s)
		return Result{OK: rel.holds(got, n), Spans: whole(s),
			Reason: fmt.Sprintf("%s, want %s %d", plural(got, "word", "words"), rel, n)}
	}}, nil
}

// length_constraints:number_sentences — sentences (see countSentences)
// compared with the threshold.
func parseSentences(a *args) (Constraint, error) {
	n, err := a.int("num_sentences")
	if err != nil {
		return Constraint{}, err
	}
	rel, err := a.relation("relation")
	if err != nil {
		return Constraint{}, err
	}
	text := fmt.Sprintf("Your response should contain %s %d sentences.", rel, n)
	return Constraint{text: text, check: func(s string) Result {
		got := countSentences(s)
		return Result{OK: rel.holds(got, n), Spans: whole(s),
			Reason: fmt.Sprintf("%s, want %s %d", plural(got, "sentence", "sentences"), rel, n)}
	}}, nil
}

// length_constraints:number_paragraphs — the response split on the markdown
// divider *** has exactly n paragraphs; an empty piece is allowed only
// first or last.
func parseParagraphs(a *args) (Constraint, error) {
	n, err := a.int("num_paragraphs")
	if err != nil {
		return Constraint{}, err
	}
	text := fmt.Sprintf("There should be %d paragraphs. Paragraphs are separated with the markdown divider: ***", n)
	return Constraint{text: text, check: func(s string) Result {
		divs := dividers(s) // IFEval splits on \s?\*\*\*\s?
		got := len(divs) + 1
		prev := 0
		for i := 0; i <= len(divs); i++ {
			end := len(s)
			if i < len(divs) {
				end = divs[i][0]
			}
			if stripped(s[prev:end]) == "" {
				if i > 0 && i < len(divs) {
					return Result{Spans: whole(s), Reason: fmt.Sprintf("paragraph %d is empty", i+1)}
				}
				got--
			}
			if i < len(divs) {
				prev = divs[i][1]
			}
		}
		return Result{OK: got == n, Spans: whole(s),
			Reason: fmt.Sprintf("%s, want %d", plural(got, "paragraph", "paragraphs"), n)}
	}}, nil
}

// length_constraints:nth_paragraph_first_word — split on "\n\n", exactly
// num_paragraphs non-empty paragraphs, and paragraph nth (counted in the
// raw split, empty pieces included, as IFEval does) starts with the word:
// its first whitespace-separated token, leading ' then " removed, cut at
// the first of . , ? ! ' ", lowercased.
func parseNthParagraph(a *args) (Constraint, error) {
	num, err := a.int("num_paragraphs")
	if err != nil {
		return Constraint{}, err
	}
	nth, err := a.int("nth_paragraph")
	if err != nil {
		return Constraint{}, err
	}
	if nth < 1 || nth > num {
		return Constraint{}, fmt.Errorf("nth_paragraph: want 1 to num_paragraphs (%d), got %d", num, nth)
	}
	word, err := a.nonEmpty("first_word")
	if err != nil {
		return Constraint{}, err
	}
	word = strings.ToLower(word)
	text := fmt.Sprintf("There should be %d paragraphs, separated from each other by two new lines. Paragraph %d must start with word %s.", num, nth, word)
	return Constraint{text: text, check: func(s string) Result {
		type piece struct{ start, end int }
		var pieces []piece
		for start := 0; ; {
			i := strings.Index(s[start:], "\n\n")
			if i < 0 {
				pieces = append(pieces, piece{start, len(s)})
				break
			}
			pieces = append(pieces, piece{start, start + i})
			start += i + 2
		}
		got := len(pieces)
		for _, p := range pieces {
			if stripped(s[p.start:p.end]) == "" {
				got--
			}
		}
		if nth > got {
			return Result{Spans: whole(s), Reason: fmt.Sprintf("%s, no paragraph %d", plural(got, "paragraph", "paragraphs"), nth)}
		}
		p := pieces[nth-1]
		a, b := strip(s[p.start:p.end])
		if a == b {
			return Result{Spans: whole(s), Reason: fmt.Sprintf("paragraph %d is empty", nth)}
		}
		ws, we := p.start+a, p.start+a
		for we < p.start+b {
			r, n := utf8.DecodeRuneInString(s[we:])
			if isSpace(r) {
				break
			}
			we += n
		}
		first := firstWord(s[ws:we])
		ok := got == num && first == word
		spans := whole(s)
		if got == num {
			spans = spansOf(s, [][2]int{{ws, we}})
		}
		return Result{OK: ok, Spans: spans,
			Reason: fmt.Sprintf("%s, paragraph %d starts with %q, want %d paragraphs starting %q", plural(got, "paragraph", "paragraphs"), nth, first, num, word)}
	}}, nil
}

// firstWord is IFEval's cleanup of a paragraph's first token.
func firstWord(tok string) string {
	tok = strings.TrimLeft(tok, "'")
	tok = strings.TrimLeft(tok, `"`)
	var b strings.Builder
	for _, r := range tok {
		if strings.ContainsRune(`.,?!'"`, r) {
			break
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}
