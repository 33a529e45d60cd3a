package sql

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/credo-rl/credo/task"
)

// hostile is the corpus of queries that must score 0 on executes and
// result, with the reason in Info, within the time limit, and leave the
// database file as it was.
func hostile(dir string) []struct{ name, query, reason string } {
	evil := filepath.Join(dir, "evil.db")
	return []struct{ name, query, reason string }{
		{"endless recursive CTE", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c", "time limit"},
		{"endless CTE after a first row", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x FROM c WHERE x = 1 OR x < 0", "time limit"},
		{"cross join count", "SELECT COUNT(*) FROM orders a, orders b, orders c", "time limit"},
		{"cross join of millions of rows", "SELECT a.id, b.id, c.id FROM orders a, orders b, orders c", "more than 1000 rows"},
		{"sparse cross join", "SELECT a.id FROM orders a, orders b, orders c WHERE a.id + b.id + c.id = 3", "time limit"},
		{"sorted cross join", "SELECT a.name FROM customers a, customers b, customers c ORDER BY a.name || b.name || c.name", "time limit"},
		{"attach", "ATTACH DATABASE '" + evil + "' AS evil", "ATTACH"},
		{"attach in a select", "SELECT 1 FROM customers WHERE 0; ATTACH '" + evil + "' AS e", "one statement"},
		{"writable schema", "PRAGMA writable_schema = ON", "PRAGMA"},
		{"query_only off", "PRAGMA query_only = 0", "PRAGMA"},
		{"drop table", "DROP TABLE customers", "DROP"},
		{"delete", "DELETE FROM orders", "DELETE"},
		{"update", "UPDATE products SET price = 0", "UPDATE"},
		{"insert", "INSERT INTO customers VALUES (999, 'x', 'y', 'z')", "INSERT"},
		{"create temp table", "CREATE TEMP TABLE t AS SELECT * FROM customers", "CREATE"},
		{"vacuum into", "VACUUM INTO '" + evil + "'", "VACUUM"},
		{"CTE then delete", "WITH x AS (SELECT 1) DELETE FROM orders", "DELETE"},
		{"two statements", "SELECT 1; SELECT 2", "one statement"},
		{"drop after a select", "SELECT name FROM customers; DROP TABLE customers", "one statement"},
		{"semicolon hidden after a comment", "SELECT 1 /* ; */ ; DROP TABLE customers -- ;", "one statement"},
		{"semicolon after a string", "SELECT ';'; DROP TABLE orders", "one statement"},
		{"NUL byte", "SELECT 1\x00; DROP TABLE customers", "NUL"},
		{"1 MB query", "SELECT " + strings.Repeat("1+", 500_000) + "1", "longer than the limit"},
		{"load_extension", "SELECT load_extension('" + filepath.Join(dir, "evil.so") + "')", "LOAD_EXTENSION"},
		{"load_extension quoted", `SELECT "load_extension"('x')`, "not authorized"},
		{"huge blob", "SELECT zeroblob(1000000000)", "too big"},
		{"huge printf", "SELECT printf('%.*c', 1000000000, 'x')", "too big"},
		{"huge group_concat", "SELECT group_concat(printf('%.2000c', 'x') || name) FROM customers", "too big"},
		{"pragma function", "SELECT * FROM pragma_table_info('customers')", "not authorized"},
		{"deep nesting", "SELECT " + strings.Repeat("(", 3000) + "1" + strings.Repeat(")", 3000), "Recursion limit"},
		{"unbalanced parentheses smuggling a union", "SELECT 1) UNION SELECT 2 FROM (SELECT 3", "syntax error"},
		{"explain", "EXPLAIN SELECT 1", "only SELECT"},
		{"values", "VALUES (1)", "only SELECT"},
		{"sqlite_master write via replace", "REPLACE INTO customers VALUES (1, 'a', 'b', 'c')", "REPLACE"},
	}
}

func TestHostileQueries(t *testing.T) {
	tk := openTask(t, 13, Options{})
	before := fileHash(t, tk.Path())
	p := tk.Prompt(task.Train, 0)
	limit := tk.box.limit
	for _, h := range hostile(t.TempDir()) {
		t.Run(h.name, func(t *testing.T) {
			resp := wellFormed("try", h.query)
			for _, v := range tk.Rewards()[1:] {
				start := time.Now()
				vd, err := v.Verify(context.Background(), p, resp)
				elapsed := time.Since(start)
				if err != nil {
					t.Fatalf("%s: %v", v.Name(), err)
				}
				if vd.Score != 0 {
					t.Errorf("%s = %v", v.Name(), vd.Score)
				}
				if !strings.Contains(vd.Reason, h.reason) {
					t.Errorf("%s reason %q, want it to mention %q", v.Name(), vd.Reason, h.reason)
				}
				if v.Name() == "executes" && (!strings.HasPrefix(vd.Info, "Error: ") || !strings.Contains(vd.Info, h.reason)) {
					t.Errorf("executes Info %q, want the error mentioning %q", vd.Info, h.reason)
				}
				// Twice the limit in principle; generous, as the machine is shared.
				if elapsed > time.Second {
					t.Errorf("%s took %v (limit %v)", v.Name(), elapsed, limit)
				}
			}
		})
	}
	if fileHash(t, tk.Path()) != before {
		t.Fatal("the database file changed")
	}
	// The pool still answers, with nothing changed.
	var n int
	if err := tk.DB().QueryRow("SELECT COUNT(*) FROM customers").Scan(&n); err != nil || n != nCustomers {
		t.Errorf("%d customers, %v", n, err)
	}
}

// The driver interrupts SQLite when the context ends during a statement's
// first step (the sandbox's wrapper moves all of the work there; the
// corpus above checks queries whose later steps would run long).
func TestDriverInterrupt(t *testing.T) {
	tk := openTask(t, 13, Options{})
	const q = "SELECT a.id FROM orders a, orders b, orders c WHERE a.id + b.id + c.id = 3"
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	var n int
	err := tk.DB().QueryRowContext(ctx, "SELECT COUNT(*) FROM ("+q+")").Scan(&n)
	if err == nil || time.Since(start) > time.Second {
		t.Errorf("a first step running past its context: err %v after %v", err, time.Since(start))
	}
}
