package sql

import (
	"strconv"
	"strings"
	"testing"
)

func TestSameResult(t *testing.T) {
	n := func(f float64) value { return value{kind: kindNum, num: f} }
	s := func(x string) value { return value{kind: kindText, text: x} }
	null := value{}
	rows := func(rs ...[]value) [][]value { return rs }
	r := func(vs ...value) []value { return vs }
	tests := []struct {
		name      string
		got, want [][]value
		gotCols   int
		ordered   bool
		why       string // "" when equal, else a substring of the reason
	}{
		{"equal", rows(r(s("a"), n(1))), rows(r(s("a"), n(1))), 2, false, ""},
		{"order ignored", rows(r(s("b")), r(s("a"))), rows(r(s("a")), r(s("b"))), 1, false, ""},
		{"order kept", rows(r(s("b")), r(s("a"))), rows(r(s("a")), r(s("b"))), 1, true, "row 1"},
		{"tolerance", rows(r(n(10.000000001))), rows(r(n(10))), 1, false, ""},
		{"relative tolerance on large", rows(r(n(1e9 + 100))), rows(r(n(1e9))), 1, false, ""},
		{"outside tolerance", rows(r(n(10.001))), rows(r(n(10))), 1, false, "rows differ"},
		{"int and float", rows(r(n(3))), rows(r(toValue(float64(3)))), 1, false, ""},
		{"NULL equals NULL", rows(r(null, s("x"))), rows(r(null, s("x"))), 2, true, ""},
		{"NULL is not zero", rows(r(null)), rows(r(n(0))), 1, false, "rows differ"},
		{"NULL is not empty text", rows(r(null)), rows(r(s(""))), 1, false, "rows differ"},
		{"number is not text", rows(r(s("3"))), rows(r(n(3))), 1, false, "rows differ"},
		{"duplicates count", rows(r(s("a")), r(s("a")), r(s("b"))), rows(r(s("a")), r(s("b")), r(s("b"))), 1, false, "rows differ"},
		{"missing row", rows(r(s("a"))), rows(r(s("a")), r(s("b"))), 1, false, "1 rows, the reference has 2"},
		{"column count", rows(r(s("a"), s("b"))), rows(r(s("a"))), 2, false, "2 columns"},
		{"both empty", rows(), rows(), 1, false, ""},
		{"case matters", rows(r(s("Lyon"))), rows(r(s("lyon"))), 1, false, "rows differ"},
	}
	for _, tt := range tests {
		wantCols := 1
		if len(tt.want) > 0 {
			wantCols = len(tt.want[0])
		}
		why := sameResult(tt.gotCols, tt.got, wantCols, tt.want, tt.ordered)
		if (tt.why == "") != (why == "") || !strings.Contains(why, tt.why) {
			t.Errorf("%s: sameResult = %q, want %q", tt.name, why, tt.why)
		}
	}
}

func TestCleanErrorAndLocate(t *testing.T) {
	tests := []struct {
		query, msg string
		at         string // "" when the whole query is the span
	}{
		{"SELECT nmae FROM customers", "no such column: nmae", "nmae"},
		{"SELECT c.nmae FROM customers c", "no such column: c.nmae", "c.nmae"},
		{"SELECT name FORM customers", `near "customers": syntax error`, "customers"},
		{"SELECT name FROM custmers", "no such table: custmers", "custmers"},
		{"SELECT COUNTT(*) FROM orders", "no such function: COUNTT", "COUNTT"},
		{"SELECT id FROM orders o JOIN customers c ON c.id = o.customer_id", "ambiguous column name: id", "id"},
		{"SELECT name FROM", "incomplete input", ""},
		{"SELECT 'abc", `unrecognized token: "'abc"`, "'abc"},
	}
	tk := openTask(t, 2, Options{})
	for _, tt := range tests {
		o, err := tk.box.run(t.Context(), tt.query)
		if err != nil {
			t.Fatal(err)
		}
		if o.err != tt.msg {
			t.Errorf("%q: error %q, want %q", tt.query, o.err, tt.msg)
			continue
		}
		want := tt.query
		if tt.at != "" {
			want = tt.at
		}
		if got := tt.query[o.start:o.end]; got != want {
			t.Errorf("%q: span %q, want %q", tt.query, got, want)
		}
	}
}

func TestRowLimit(t *testing.T) {
	tk := openTask(t, 2, Options{})
	for _, tt := range []struct {
		n  int
		ok bool
	}{{1000, true}, {1001, false}, {0, true}} {
		q := "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < " + strconv.Itoa(tt.n) + ") SELECT x FROM c WHERE x <= " + strconv.Itoa(tt.n)
		o, err := tk.box.run(t.Context(), q)
		if err != nil {
			t.Fatal(err)
		}
		if (o.err == "") != tt.ok || tt.ok && len(o.rows) != tt.n {
			t.Errorf("%d rows: error %q, %d rows read", tt.n, o.err, len(o.rows))
		}
	}
}
