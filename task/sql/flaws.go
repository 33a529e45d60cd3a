package sql

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// misspellable are the words a demonstration may misspell: columns, tables
// and keywords, all of which SQLite then rejects.
var misspellable = map[string]bool{
	"ID": true, "NAME": true, "CITY": true, "JOINED": true, "CATEGORY": true, "PRICE": true,
	"CUSTOMER_ID": true, "PRODUCT_ID": true, "QUANTITY": true, "DAY": true,
	"CUSTOMERS": true, "PRODUCTS": true, "ORDERS": true,
	"SELECT": true, "FROM": true, "WHERE": true, "JOIN": true, "GROUP": true, "ORDER": true, "HAVING": true,
}

// maxTries bounds the attempts at a flaw; each runs a query.
const maxTries = 8

// breakExecutes misspells one word of query so that SQLite rejects it, and
// returns the misspelled query with the error it raises.
func (t *Task) breakExecutes(ctx context.Context, r *rand.Rand, query string) (bad, msg string, ok bool) {
	var words []token
	for _, tk := range meaningful(lex(query)) {
		if tk.kind == tokWord && misspellable[strings.ToUpper(tk.text(query))] {
			words = append(words, tk)
		}
	}
	if len(words) == 0 {
		return "", "", false
	}
	for range maxTries {
		tk := pick(r, words)
		w := typo(r, tk.text(query))
		if strings.EqualFold(w, tk.text(query)) {
			continue
		}
		bad = query[:tk.start] + w + query[tk.end:]
		o, err := t.box.run(ctx, bad)
		if err == nil && o.err != "" && !o.timeout {
			return bad, o.err, true
		}
	}
	return "", "", false
}

// typo swaps two neighbouring letters (name → nmae) or drops one (FROM →
// FRM), keeping the first letter as people do.
func typo(r *rand.Rand, w string) string {
	b := []byte(w)
	if len(b) < 2 {
		return w
	}
	if len(b) >= 4 && r.IntN(3) == 0 {
		i := 1 + r.IntN(len(b)-1)
		return string(append(b[:i:i], b[i+1:]...))
	}
	i := 0
	if len(b) > 2 {
		i = 1 + r.IntN(len(b)-2)
	}
	b[i], b[i+1] = b[i+1], b[i]
	return string(b)
}

// breakResult changes query x so that it still runs but answers something
// else: another literal, column, comparison, aggregate or order, or a
// dropped condition. It tries the applicable changes in random order and
// keeps the first whose result differs from the reference's.
func (t *Task) breakResult(ctx context.Context, r *rand.Rand, x question) (string, bool) {
	ref, err := t.box.run(ctx, x.Query)
	if err != nil || ref.err != "" {
		return "", false
	}
	cands := t.resultMutations(r, x.Query)
	r.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
	for i, bad := range cands {
		if i == maxTries {
			break
		}
		o, err := t.box.run(ctx, bad)
		if err != nil || o.err != "" {
			continue
		}
		if sameResult(o.cols, o.rows, ref.cols, ref.rows, x.Ordered) != "" {
			return bad, true
		}
	}
	return "", false
}

// alternatives are columns a confused model puts in another's place.
var alternatives = map[string][]string{
	"NAME": {"city", "id"}, "CITY": {"name"}, "ID": {"customer_id", "product_id", "quantity"},
	"PRICE": {"id"}, "CATEGORY": {"name"}, "QUANTITY": {"id"}, "JOINED": {"id", "name"},
	"DAY": {"id"}, "PRODUCT_ID": {"customer_id"}, "CUSTOMER_ID": {"product_id"},
}

// resultMutations lists plausible wrong versions of query.
func (t *Task) resultMutations(r *rand.Rand, query string) []string {
	toks := meaningful(lex(query))
	var out []string
	replace := func(tk token, s string) {
		out = append(out, query[:tk.start]+s+query[tk.end:])
	}
	inSelect := false // between SELECT and FROM
	for i, tk := range toks {
		s := tk.text(query)
		u := strings.ToUpper(s)
		switch u {
		case "SELECT":
			inSelect = true
		case "FROM":
			inSelect = false
		}
		switch tk.kind {
		case tokString:
			replace(tk, "'"+t.otherLiteral(r, strings.Trim(s, "'"))+"'")
		case tokNumber:
			n, err := strconv.ParseFloat(s, 64)
			if err != nil {
				continue
			}
			if n > 1 {
				replace(tk, strconv.FormatFloat(n-1, 'f', -1, 64))
			}
			replace(tk, strconv.FormatFloat(n*2+1, 'f', -1, 64))
		case tokPunct:
			switch s {
			case "<":
				replace(tk, ">")
			case ">":
				replace(tk, "<")
			case ">=":
				replace(tk, ">")
			}
		case tokWord:
			if alt, ok := alternatives[u]; ok && inSelect {
				replace(tk, pick(r, alt))
			}
			switch u {
			case "DESC":
				out = append(out, strings.TrimRight(query[:tk.start], " ")+query[tk.end:])
			case "AVG":
				replace(tk, "SUM")
			case "SUM":
				replace(tk, "AVG")
			case "COUNT":
				replace(tk, "MAX")
			case "DISTINCT":
				out = append(out, query[:tk.start]+strings.TrimLeft(query[tk.end:], " "))
			case "AND":
				out = append(out, dropClause(query, toks, i))
			case "WHERE":
				out = append(out, dropClause(query, toks, i))
			case "LIMIT":
				if i > 0 {
					out = append(out, query[:toks[i-1].end]+" DESC"+query[toks[i-1].end:])
				}
			}
		}
	}
	return out
}

// dropClause removes the WHERE or AND condition starting at toks[i], up to
// the next AND, GROUP, ORDER, LIMIT or the end.
func dropClause(query string, toks []token, i int) string {
	end := len(query)
	for _, tk := range toks[i+1:] {
		if isWord(query, tk, "AND") || isWord(query, tk, "GROUP") || isWord(query, tk, "ORDER") || isWord(query, tk, "LIMIT") {
			end = tk.start
			break
		}
	}
	head := strings.TrimRight(query[:toks[i].start], " ")
	tail := strings.TrimLeft(query[end:], " ")
	if isWord(query, toks[i], "WHERE") && strings.HasPrefix(strings.ToUpper(tail), "AND ") {
		tail = "WHERE " + tail[4:]
	}
	if tail == "" {
		return head
	}
	return head + " " + tail
}

// otherLiteral gives a different value of the same sort: another city or
// category, another year.
func (t *Task) otherLiteral(r *rand.Rand, s string) string {
	for _, set := range [][]string{cities, categories} {
		for _, v := range set {
			if v == s {
				for {
					if w := pick(r, set); w != s {
						return w
					}
				}
			}
		}
	}
	if len(s) >= 4 {
		if y, err := strconv.Atoi(s[:4]); err == nil {
			return fmt.Sprint(y-1) + s[4:]
		}
	}
	return s + "x"
}
