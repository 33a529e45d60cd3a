package sql

import (
	"fmt"
	"strings"
)

// checked is what the statement checker learned about a query.
type checked struct {
	// err is why the query may not run at all ("" when it may), located at
	// [start, end) in the query.
	err        string
	start, end int
	// body is the query's one statement: leading text up to the end of its
	// last meaningful token, without the trailing semicolon and comments, so
	// it can be wrapped in a subquery.
	body string
	// rawOnly says the query is malformed in a way SQLite will report itself
	// (unbalanced parentheses, an unterminated string): it must not be
	// wrapped, since the wrapper's own text would change the error or, worse,
	// close what the query left open.
	rawOnly bool
}

// forbidden are the words that begin statements other than SELECT. A query
// is one SELECT statement, so none of them may appear outside strings and
// quoted identifiers. REPLACE is also a string function; it is allowed when
// a parenthesis follows.
var forbidden = map[string]bool{
	"ATTACH": true, "DETACH": true, "PRAGMA": true, "INSERT": true, "UPDATE": true,
	"DELETE": true, "DROP": true, "CREATE": true, "ALTER": true, "VACUUM": true,
	"REINDEX": true, "ANALYZE": true, "BEGIN": true, "COMMIT": true,
	"ROLLBACK": true, "SAVEPOINT": true, "RELEASE": true, "REPLACE": true,
	"LOAD_EXTENSION": true,
}

// checkQuery inspects a query before it reaches SQLite: it must fit in
// maxBytes, hold no NUL byte, be one statement (a final semicolon is
// allowed), start with SELECT or WITH (a start no statement has, such as a
// misspelled SELECT, is left to SQLite to report), and name no statement
// keyword of another kind. This is the first of three walls; the connection's
// authorizer and its read-only, immutable open are the others.
func checkQuery(q string, maxBytes int) checked {
	if len(q) > maxBytes {
		return checked{err: fmt.Sprintf("query is %d bytes, longer than the limit of %d", len(q), maxBytes), end: len(q)}
	}
	if i := strings.IndexByte(q, 0); i >= 0 {
		return checked{err: "query contains a NUL byte", start: i, end: i + 1}
	}
	toks := meaningful(lex(q))
	if len(toks) == 0 {
		return checked{err: "empty query", end: len(q)}
	}
	last := len(toks)
	if t := toks[last-1]; t.kind == tokPunct && q[t.start] == ';' {
		last--
		if last == 0 {
			return checked{err: "empty query", end: len(q)}
		}
	}
	c := checked{body: q[:toks[last-1].end]}
	first := toks[0]
	if !isWord(q, first, "SELECT") && !isWord(q, first, "WITH") {
		w := strings.ToUpper(first.text(q))
		if first.kind == tokWord && (forbidden[w] || w == "END" || w == "EXPLAIN" || w == "VALUES") {
			return checked{err: fmt.Sprintf("only SELECT queries are allowed, not %s", w), start: first.start, end: first.end}
		}
		// Anything else cannot begin a statement: SQLite reports the
		// syntax error (near "SELCT"), which says more than we would.
		c.rawOnly = true
	}
	depth := 0
	for i, t := range toks[:last] {
		switch t.kind {
		case tokPunct:
			switch q[t.start] {
			case ';':
				return checked{err: "only one statement is allowed", start: t.start, end: len(q)}
			case '(':
				depth++
			case ')':
				depth--
				if depth < 0 {
					c.rawOnly = true
				}
			}
		case tokWord:
			w := strings.ToUpper(t.text(q))
			if !forbidden[w] {
				continue
			}
			if w == "REPLACE" && i+1 < last && toks[i+1].kind == tokPunct && q[toks[i+1].start] == '(' {
				continue
			}
			return checked{err: fmt.Sprintf("%s is not allowed: only SELECT queries run", w), start: t.start, end: t.end}
		case tokString, tokQuoted:
			if t.open {
				c.rawOnly = true
			}
		}
	}
	if depth != 0 {
		c.rawOnly = true
	}
	return c
}
