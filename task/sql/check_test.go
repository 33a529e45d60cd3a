package sql

import (
	"strings"
	"testing"
)

func TestLex(t *testing.T) {
	tests := []struct {
		in   string
		want []string // token texts, comments included
	}{
		{"SELECT name FROM customers", []string{"SELECT", "name", "FROM", "customers"}},
		{"SELECT 'a;b' , \"x\"\"y\" FROM [t]", []string{"SELECT", "'a;b'", ",", `"x""y"`, "FROM", "[t]"}},
		{"SELECT 'it''s'", []string{"SELECT", "'it''s'"}},
		{"a>=1.5e-3 AND b<>2", []string{"a", ">=", "1.5e-3", "AND", "b", "<>", "2"}},
		{"x -- c;\ny /* ; */ z", []string{"x", "-- c;", "y", "/* ; */", "z"}},
		{"SELECT 'open", []string{"SELECT", "'open"}},
		{"a /* open", []string{"a", "/* open"}},
		{"c.id=o.customer_id", []string{"c", ".", "id", "=", "o", ".", "customer_id"}},
		{"\xff\xfe 1", []string{"\xff\xfe", "1"}},
	}
	for _, tt := range tests {
		var got []string
		for _, tk := range lex(tt.in) {
			got = append(got, tk.text(tt.in))
		}
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("lex(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCheckQuery(t *testing.T) {
	tests := []struct {
		q       string
		err     string // substring of the refusal; "" when accepted
		at      string // the text the refusal points at
		body    string // accepted: the statement to wrap
		rawOnly bool
	}{
		{q: "SELECT 1", body: "SELECT 1"},
		{q: "  select name from customers ;  -- done", body: "  select name from customers"},
		{q: "WITH x AS (SELECT 1) SELECT * FROM x;", body: "WITH x AS (SELECT 1) SELECT * FROM x"},
		{q: "SELECT replace(name, 'a', 'b') FROM customers", body: "SELECT replace(name, 'a', 'b') FROM customers"},
		{q: "SELECT 'DROP TABLE x; --' AS s", body: "SELECT 'DROP TABLE x; --' AS s"},
		{q: `SELECT "delete" FROM t`, body: `SELECT "delete" FROM t`},
		{q: "SELECT 1 /* unterminated", body: "SELECT 1"},
		{q: "SELECT (1", body: "SELECT (1", rawOnly: true},
		{q: "SELECT 1)", body: "SELECT 1)", rawOnly: true},
		{q: "SELECT 'abc", body: "SELECT 'abc", rawOnly: true},
		{q: "SELCT name FROM customers", body: "SELCT name FROM customers", rawOnly: true},
		{q: "", err: "empty query"},
		{q: " -- nothing\n", err: "empty query"},
		{q: ";", err: "empty query"},
		{q: "SELECT 1; SELECT 2", err: "one statement", at: "; SELECT 2"},
		{q: "SELECT 1;;", err: "one statement", at: ";;"},
		{q: "DROP TABLE customers", err: "only SELECT", at: "DROP"},
		{q: "PRAGMA query_only=0", err: "only SELECT", at: "PRAGMA"},
		{q: "WITH x AS (SELECT 1) DELETE FROM orders", err: "DELETE is not allowed", at: "DELETE"},
		{q: "SELECT 1 FROM t WHERE 0 UNION SELECT attach FROM t", err: "ATTACH", at: "attach"},
		{q: "REPLACE INTO t VALUES (1)", err: "only SELECT", at: "REPLACE"},
		{q: "SELECT 1 \x00", err: "NUL", at: "\x00"},
		{q: "SELECT " + strings.Repeat("1", 20000), err: "longer than the limit", at: "SELECT " + strings.Repeat("1", 20000)},
	}
	for _, tt := range tests {
		c := checkQuery(tt.q, 10_000)
		if tt.err == "" {
			if c.err != "" || c.body != tt.body || c.rawOnly != tt.rawOnly {
				t.Errorf("checkQuery(%q) = %+v, want body %q rawOnly %v", tt.q, c, tt.body, tt.rawOnly)
			}
			continue
		}
		if !strings.Contains(c.err, tt.err) {
			t.Errorf("checkQuery(%q) error %q, want %q", tt.q, c.err, tt.err)
		}
		if tt.at != "" && tt.q[c.start:c.end] != tt.at {
			t.Errorf("checkQuery(%q) points at %q, want %q", tt.q, tt.q[c.start:c.end], tt.at)
		}
	}
}
