package sql

import (
	"strconv"
	"strings"

	"github.com/credo-rl/credo/reward"
)

// maxDiffCells bounds the longest-common-subsequence table, so a long
// query costs a whole-query span rather than time.
const maxDiffCells = 1 << 20

// diffSpans locates where query departs from ref, in query's bytes: the
// tokens of query outside a longest common subsequence of the two token
// lists (a wrong literal, column or clause) and, where ref has tokens query
// lacks with nothing in their place (a missing condition), the token of
// query there.
// Tokens compare case-insensitively for words, by value for numbers. When
// nothing can be located, the span is the whole query.
func diffSpans(query, ref string) []reward.Span {
	a, b := meaningful(lex(query)), meaningful(lex(ref))
	if len(a) == 0 || len(a)*len(b) > maxDiffCells {
		return whole(0, len(query))
	}
	ka, kb := make([]string, len(a)), make([]string, len(b))
	for i, t := range a {
		ka[i] = tokenKey(query, t)
	}
	for i, t := range b {
		kb[i] = tokenKey(ref, t)
	}
	// l[i][j] is the LCS length of ka[i:] and kb[j:].
	w := len(b) + 1
	l := make([]int32, (len(a)+1)*w)
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if ka[i] == kb[j] {
				l[i*w+j] = l[(i+1)*w+j+1] + 1
			} else {
				l[i*w+j] = max(l[(i+1)*w+j], l[i*w+j+1])
			}
		}
	}
	// Walk the table: runs of tokens off the common subsequence are edits.
	// An edit that replaces or adds tokens marks those tokens of query; one
	// that only deletes (ref has tokens query lacks) marks the token of
	// query where they are missing, or the last one when they are missing
	// at the end.
	var spans []reward.Span
	mark := func(t token) {
		if n := len(spans); n > 0 {
			p := &spans[n-1]
			if t.start <= p.End || strings.TrimSpace(query[p.End:t.start]) == "" {
				p.End = max(p.End, t.end) // the same token again, or the next one
				return
			}
		}
		spans = append(spans, reward.Span{Start: t.start, End: t.end})
	}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		if i < len(a) && j < len(b) && ka[i] == kb[j] {
			i++
			j++
			continue
		}
		extra := false
		for i < len(a) || j < len(b) {
			if i < len(a) && j < len(b) && ka[i] == kb[j] {
				break
			}
			if j == len(b) || i < len(a) && l[(i+1)*w+j] >= l[i*w+j+1] {
				mark(a[i]) // in query, not in ref
				extra = true
				i++
			} else {
				j++ // in ref, not in query
			}
		}
		if !extra {
			mark(a[min(i, len(a)-1)])
		}
	}
	if len(spans) == 0 {
		return whole(0, len(query))
	}
	return spans
}

// tokenKey is the comparable form of a token.
func tokenKey(q string, t token) string {
	s := t.text(q)
	switch t.kind {
	case tokWord:
		return strings.ToUpper(s)
	case tokQuoted:
		if !t.open && len(s) >= 2 {
			return strings.ToUpper(s[1 : len(s)-1])
		}
	case tokNumber:
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return "#" + strconv.FormatFloat(f, 'g', -1, 64)
		}
	case tokPunct:
		switch s {
		case "==":
			return "="
		case "!=":
			return "<>"
		}
	}
	return s
}
