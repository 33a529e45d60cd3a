package sql

import "strings"

// tokKind classifies a lexed SQL token.
type tokKind uint8

const (
	tokWord    tokKind = iota // keyword or bare identifier
	tokNumber                 // numeric literal
	tokString                 // '…' literal
	tokQuoted                 // "…", `…` or […] identifier
	tokPunct                  // operator, parenthesis, comma, semicolon, dot
	tokComment                // -- … or /* … */
)

// token is one lexeme of a query: its kind and byte range. open says a
// string, quoted identifier or block comment runs to the end of the input
// without being closed.
type token struct {
	kind       tokKind
	start, end int
	open       bool
}

func (t token) text(q string) string { return q[t.start:t.end] }

// lex splits q into tokens the way SQLite's tokenizer does for the parts
// that matter here: strings, quoted identifiers and comments are single
// tokens, so a keyword or semicolon inside them is never mistaken for one
// outside. It works on bytes, so invalid UTF-8 cannot make it fail; bytes
// of 0x80 and above are identifier characters, as in SQLite. Whitespace is
// dropped; comments are kept (callers skip them).
func lex(q string) []token {
	var toks []token
	for i := 0; i < len(q); {
		c := q[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			i++
		case c == '-' && i+1 < len(q) && q[i+1] == '-':
			j := strings.IndexByte(q[i:], '\n')
			end := len(q)
			if j >= 0 {
				end = i + j
			}
			toks = append(toks, token{kind: tokComment, start: i, end: end})
			i = end
		case c == '/' && i+1 < len(q) && q[i+1] == '*':
			j := strings.Index(q[i+2:], "*/")
			t := token{kind: tokComment, start: i, end: len(q), open: j < 0}
			if j >= 0 {
				t.end = i + 2 + j + 2
			}
			toks = append(toks, t)
			i = t.end
		case c == '\'' || c == '"' || c == '`':
			t := quotedToken(q, i, c, c)
			toks = append(toks, t)
			i = t.end
		case c == '[':
			t := quotedToken(q, i, '[', ']')
			toks = append(toks, t)
			i = t.end
		case isDigit(c) || (c == '.' && i+1 < len(q) && isDigit(q[i+1])):
			j := i
			for j < len(q) && (isIdent(q[j]) || q[j] == '.' ||
				((q[j] == '+' || q[j] == '-') && j > i && (q[j-1] == 'e' || q[j-1] == 'E') && !strings.ContainsAny(q[i:j], "xX"))) {
				j++
			}
			toks = append(toks, token{kind: tokNumber, start: i, end: j})
			i = j
		case isIdent(c) || c == '$' || c == '@' || c == ':' || c == '?' || c == '#':
			j := i + 1
			for j < len(q) && (isIdent(q[j]) || q[j] == '$') {
				j++
			}
			toks = append(toks, token{kind: tokWord, start: i, end: j})
			i = j
		default:
			j := i + 1
			if j < len(q) && isTwoCharOp(c, q[j]) {
				j++
			}
			toks = append(toks, token{kind: tokPunct, start: i, end: j})
			i = j
		}
	}
	return toks
}

// quotedToken lexes a quoted lexeme starting at q[i] == open. A doubled
// closing character inside is an escaped one, as in SQL.
func quotedToken(q string, i int, open, close byte) token {
	kind := tokQuoted
	if open == '\'' {
		kind = tokString
	}
	for j := i + 1; j < len(q); j++ {
		if q[j] != close {
			continue
		}
		if close != ']' && j+1 < len(q) && q[j+1] == close {
			j++
			continue
		}
		return token{kind: kind, start: i, end: j + 1}
	}
	return token{kind: kind, start: i, end: len(q), open: true}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isIdent(c byte) bool {
	return c == '_' || c >= 0x80 || isDigit(c) || (c|0x20 >= 'a' && c|0x20 <= 'z')
}

func isTwoCharOp(a, b byte) bool {
	switch string([]byte{a, b}) {
	case "<=", ">=", "<>", "!=", "==", "||", "<<", ">>", "->":
		return true
	}
	return false
}

// meaningful drops comments from toks.
func meaningful(toks []token) []token {
	out := toks[:0:0]
	for _, t := range toks {
		if t.kind != tokComment {
			out = append(out, t)
		}
	}
	return out
}

// isWord reports whether t is the bare word w, ignoring ASCII case.
func isWord(q string, t token, w string) bool {
	return t.kind == tokWord && strings.EqualFold(t.text(q), w)
}
