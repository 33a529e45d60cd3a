package sql

import (
	"context"
	dbsql "database/sql"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// SQLite checks for an interrupt only where its program loops (the next
// row, the next recursion step). The calls that compute one row run one
// after the other with no check between them, so a query whose row makes
// many costly calls runs on after its time limit for as long as the calls
// take (issue 26: 120 trims of 10 kB strings ran 10 s past a 200 ms limit,
// and a subquery read 120 times is expanded into 120 calls). Two bounds
// keep that short: maxValueBytes bounds one call, and maxCostlyCalls bounds
// how many calls whose cost grows with the product of two arguments'
// lengths a query may compile to. Calls whose cost is linear in their
// arguments (upper, substr, printf, …) cost microseconds at maxValueBytes.

// costlyFuncs are SQLite's functions whose work is the product of two of
// their arguments' lengths: trim's string by its character set, replace's
// and instr's text by the pattern or needle, like's and glob's text by the
// pattern.
var costlyFuncs = []string{"glob", "instr", "like", "ltrim", "replace", "rtrim", "trim"}

// maxCostlyCalls is the most costly calls a compiled query may hold. At
// maxValueBytes one such call takes about a millisecond here, so a row
// that makes all of them ends within tens of milliseconds of the limit; a
// question about the shop needs a few at most.
const maxCostlyCalls = 16

// costlyCalls counts the costly calls in the program SQLite compiles for
// query (EXPLAIN lists one Function or PureFunc operation per call, with
// every copy the query planner made), by function name. A query that does
// not compile has none: running it reports its error.
func costlyCalls(ctx context.Context, conn *dbsql.Conn, query string) map[string]int {
	rows, err := conn.QueryContext(ctx, "EXPLAIN "+query)
	if err != nil {
		return nil
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil || len(cols) < 5 {
		return nil
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	calls := map[string]int{}
	for rows.Next() {
		if rows.Scan(ptrs...) != nil {
			return nil
		}
		if op := text(vals[1]); op != "Function" && op != "PureFunc" {
			continue
		}
		name, _, _ := strings.Cut(text(vals[5]), "(") // p4 is "trim(2)"
		if name = strings.ToLower(name); slices.Contains(costlyFuncs, name) {
			calls[name]++
		}
	}
	return calls
}

// tooCostly is the refusal of a query with more than maxCostlyCalls
// costly calls, naming them, or "" when it has few enough.
func tooCostly(calls map[string]int) string {
	n := 0
	var named []string
	for name, k := range calls {
		n += k
		named = append(named, fmt.Sprintf("%s %d", name, k))
	}
	if n <= maxCostlyCalls {
		return ""
	}
	sort.Strings(named)
	return fmt.Sprintf("not run: the query makes %d calls of trim, replace, instr, like or glob (%s, counting the copies SQLite makes of subqueries); at most %d are allowed",
		n, strings.Join(named, ", "), maxCostlyCalls)
}

// text is a column value as a string.
func text(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []byte:
		return string(x)
	}
	return ""
}
