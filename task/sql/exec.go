package sql

import (
	"context"
	dbsql "database/sql"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"
	"unsafe"

	sqlite "modernc.org/sqlite"
	lib "modernc.org/sqlite/lib"
)

// outcome is what running one query gave: its rows, or the error SQLite
// raised (or the sandbox's own refusal), located in the query.
type outcome struct {
	cols int
	rows [][]value
	// err is the error message ("" when the query ran), without the
	// driver's decorations: "no such column: nmae", not
	// "SQL logic error: no such column: nmae (1)".
	err        string
	start, end int  // where in the query the error is, when known; else the whole query
	located    bool // start and end point at the token the error names
	timeout    bool // the time limit ended the query
}

// size estimates the bytes the outcome holds, for the cache's budget: the
// struct, each row's slice header, each cell and its text.
func (o *outcome) size() int {
	n := int(unsafe.Sizeof(*o)) + len(o.err)
	for _, r := range o.rows {
		n += int(unsafe.Sizeof(r)) + len(r)*int(unsafe.Sizeof(value{}))
		for _, v := range r {
			n += len(v.text)
		}
	}
	return n
}

// sandbox runs untrusted queries against the read-only database.
type sandbox struct {
	db        *dbsql.DB
	limit     time.Duration // per query, enforced by interrupting SQLite
	maxRows   int
	maxBytes  int
	cache     *cache // nil: no cache
	sqlLimits [][2]int
	running   sync.WaitGroup // query goroutines still at work (tests wait on it)
}

func newSandbox(path string, o Options) (*sandbox, error) {
	dsn, err := readOnlyDSN(path)
	if err != nil {
		return nil, err
	}
	db := dbsql.OpenDB(connector{drv: &sqlite.Driver{}, dsn: dsn, authorize: authorize})
	// A verdict never waits for a connection another query holds (issue 26:
	// eight queries past their limit made a correct one wait 22 s): the pool
	// opens more while more queries run at once, up to maxConns, and keeps
	// o.Conns open between them.
	db.SetMaxOpenConns(max(o.Conns, maxConns))
	db.SetMaxIdleConns(o.Conns)
	s := &sandbox{db: db, limit: o.TimeLimit, maxRows: o.MaxRows, maxBytes: o.MaxQueryBytes}
	if o.CacheBytes > 0 {
		s.cache = newCache(o.CacheBytes)
	}
	s.sqlLimits = [][2]int{
		{lib.SQLITE_LIMIT_ATTACHED, 0},
		{lib.SQLITE_LIMIT_SQL_LENGTH, o.MaxQueryBytes + len(wrapHead) + len(wrapTail) + 16},
		{lib.SQLITE_LIMIT_LENGTH, maxValueBytes},
		{lib.SQLITE_LIMIT_LIKE_PATTERN_LENGTH, 200}, // LIKE and GLOB stay linear-ish
		{lib.SQLITE_LIMIT_EXPR_DEPTH, 200},          // bounded parse trees
		{lib.SQLITE_LIMIT_COMPOUND_SELECT, 50},      // bounded UNION chains
		{lib.SQLITE_LIMIT_VDBE_OP, 50_000},          // bounded compiled programs
		{lib.SQLITE_LIMIT_FUNCTION_ARG, 32},         // bounded calls
		{lib.SQLITE_LIMIT_TRIGGER_DEPTH, 1},         // no triggers exist; belt and braces
		{lib.SQLITE_LIMIT_WORKER_THREADS, 0},        // sorts stay on the verifying goroutine
	}
	// Open one connection now, so a bad path fails here and not at the first verdict.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	return s, nil
}

// maxConns is the most connections open at once: queries beyond it wait
// for one (verifiers run a few workers each, so it is not reached).
const maxConns = 64

// maxValueBytes is SQLITE_LIMIT_LENGTH: no string, blob or row above 1 kB
// (the largest value in the database is a few dozen bytes, the widest row
// of a three-table join a few hundred). It also bounds the one kind of
// work the driver's interrupt cannot stop, a function call: trim(X, Y)
// compares every character of X with every one of Y's at most
// maxValueBytes/12 characters (its per-character table must fit the limit),
// so one call does at most 1,000 × 83 comparisons, about a millisecond
// (cost.go bounds how many such calls one row makes). At 100 kB one call
// ran 7 s past the time limit (issue 14); at 10 kB one took 0.1 s, and 120
// of them in a row 10 s (issue 26).
const maxValueBytes = 1_000

// The wrapper puts every query inside a window function. count(*) OVER ()
// needs the whole (LIMIT-bounded) result before it can return the first
// row, so all of the query's work happens in the first sqlite3_step, the
// only one modernc.org/sqlite interrupts when the context ends (measured:
// a query whose first row came at once and whose second took 19 s ran the
// full 19 s unwrapped). The extra column is the row count, capped at
// maxRows+1 by the inner LIMIT. A subquery keeps its own ORDER BY here:
// SQLite drops it only when the outer query sorts or joins.
const (
	wrapHead = "SELECT *, count(*) OVER () FROM (SELECT * FROM (\n"
	wrapTail = "\n) LIMIT %d)"
)

// run executes query under the sandbox's limits. Queries the checker
// refuses, SQLite errors, time-outs and too many rows are all outcomes
// with err set; the returned error is only the caller's cancellation.
func (s *sandbox) run(ctx context.Context, query string) (*outcome, error) {
	if s.cache == nil {
		return s.exec(ctx, query)
	}
	return s.cache.get(ctx, query, s.exec)
}

func (s *sandbox) exec(ctx context.Context, query string) (*outcome, error) {
	c := checkQuery(query, s.maxBytes)
	if c.err != "" {
		return &outcome{err: c.err, start: c.start, end: c.end, located: c.end-c.start < len(query)}, nil
	}
	// The time limit starts once a connection is held: waiting for one
	// while other queries use them all says nothing about this query.
	conn, err := s.db.Conn(ctx)
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return s.timedOut(query), nil
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("run query: %w", ctx.Err())
		}
		return &outcome{err: "sandbox: " + err.Error(), end: len(query)}, nil
	}
	qctx, cancel := context.WithTimeout(ctx, s.limit)
	defer cancel()
	done := make(chan *outcome, 1)
	s.running.Go(func() {
		defer conn.Close()
		done <- s.query(qctx, conn, query, c)
	})
	// The driver interrupts SQLite when qctx ends, between VM operations;
	// maxValueBytes bounds a single operation, so the grace period only
	// covers a loaded machine, and the verdict does not wait past it.
	grace := time.NewTimer(s.limit + s.limit/2 + 20*time.Millisecond)
	defer grace.Stop()
	var o *outcome
	select {
	case o = <-done:
	case <-grace.C:
		o = &outcome{timeout: true}
	}
	if err := ctx.Err(); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return nil, fmt.Errorf("run query: %w", err)
	}
	if o.timeout {
		return s.timedOut(query), nil
	}
	if o.err != "" && !o.located {
		o.start, o.end = 0, len(query)
	}
	return o, nil
}

// timedOut is the outcome of a query the time limit stopped.
func (s *sandbox) timedOut(query string) *outcome {
	return &outcome{timeout: true, end: len(query),
		err: fmt.Sprintf("interrupted: the query ran longer than the time limit of %v", s.limit)}
}

// query runs on its own goroutine so exec can stop waiting for it.
func (s *sandbox) query(ctx context.Context, conn *dbsql.Conn, query string, c checked) *outcome {
	for _, l := range s.sqlLimits {
		if _, err := sqlite.Limit(conn, l[0], l[1]); err != nil {
			return &outcome{err: fmt.Sprintf("sandbox: set limit %d: %v", l[0], err)}
		}
	}
	if c.rawOnly {
		return s.prepareRaw(ctx, conn, query, nil)
	}
	wrapped := wrapHead + c.body + fmt.Sprintf(wrapTail, s.maxRows+1)
	if msg := tooCostly(costlyCalls(ctx, conn, wrapped)); msg != "" {
		return &outcome{err: msg}
	}
	rows, err := conn.QueryContext(ctx, wrapped)
	if err != nil {
		return s.prepareRaw(ctx, conn, query, err)
	}
	defer rows.Close()
	names, err := rows.Columns()
	if err != nil {
		return s.failure(ctx, err, query)
	}
	o := &outcome{cols: len(names) - 1}
	dest := make([]any, len(names))
	ptrs := make([]any, len(names))
	for i := range dest {
		ptrs[i] = &dest[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return s.failure(ctx, err, query)
		}
		if n, ok := dest[len(dest)-1].(int64); ok && n > int64(s.maxRows) {
			return &outcome{err: fmt.Sprintf("the query returned more than %d rows", s.maxRows)}
		}
		row := make([]value, o.cols)
		for i := range row {
			row[i] = toValue(dest[i])
		}
		o.rows = append(o.rows, row)
	}
	if err := rows.Err(); err != nil {
		return s.failure(ctx, err, query)
	}
	if o.rows == nil {
		o.rows = [][]value{}
	}
	return o
}

// prepareRaw compiles the query as the model wrote it, to report the error
// SQLite raises for that very text rather than for the wrapped one. When
// the raw query compiles, the wrapped run's own error (a run-time one, such
// as a value too big) stands.
func (s *sandbox) prepareRaw(ctx context.Context, conn *dbsql.Conn, query string, wrapped error) *outcome {
	st, err := conn.PrepareContext(ctx, query)
	if err == nil {
		st.Close()
		if wrapped == nil {
			return &outcome{err: "not run: the query is not one well-formed SELECT statement"}
		}
		return s.failure(ctx, wrapped, query)
	}
	return s.failure(ctx, err, query)
}

// failure turns an error into an outcome with a clean message, located in
// the query when the message names a token.
func (s *sandbox) failure(ctx context.Context, err error, query string) *outcome {
	if ctx.Err() != nil {
		return &outcome{timeout: true}
	}
	msg := cleanError(err)
	o := &outcome{err: msg}
	o.start, o.end, o.located = locate(query, msg)
	return o
}

var (
	rcSuffix = regexp.MustCompile(` \(\d+\)( \(SQLITE_BUSY\))?$`)
	// named finds the name an error message is about.
	named = []*regexp.Regexp{
		regexp.MustCompile(`^near "(.+)": syntax error$`),
		regexp.MustCompile(`^unrecognized token: "(.+)"$`),
		regexp.MustCompile(`^no such (?:column|table|function|collation sequence): (.+)$`),
		regexp.MustCompile(`^ambiguous column name: (.+)$`),
		regexp.MustCompile(`^(?:misuse of aggregate(?: function)?:? |misuse of window function |wrong number of arguments to function )(.+?)\(\)$`),
	}
)

// cleanError strips the driver's decorations from a SQLite error:
// "SQL logic error: no such column: nmae (1)" becomes "no such column: nmae".
// The driver writes "errstr: errmsg (code)" or "errstr (code)", and SQLite's
// errstr texts hold no ": ", so the first one ends the prefix.
func cleanError(err error) string {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return err.Error()
	}
	msg := rcSuffix.ReplaceAllString(se.Error(), "")
	if _, rest, ok := strings.Cut(msg, ": "); ok {
		msg = rest
	}
	return msg
}

// locate finds the token an error message names in the query: the text in
// near "…" or after "no such column: ", searched as written, then without
// a table qualifier, then ignoring case. When there is none, or it is not
// found, the whole query is the span.
func locate(query, msg string) (start, end int, ok bool) {
	for _, re := range named {
		m := re.FindStringSubmatch(msg)
		if m == nil || len(m) < 2 || m[1] == "" {
			continue
		}
		name := m[1]
		cands := []string{name}
		if _, after, found := strings.Cut(name, "."); found && after != "" {
			cands = append(cands, after)
		}
		for _, c := range cands {
			if i := strings.Index(query, c); i >= 0 {
				return i, i + len(c), true
			}
		}
		lq := asciiLower(query)
		for _, c := range cands {
			if i := strings.Index(lq, asciiLower(c)); i >= 0 {
				return i, i + len(c), true
			}
		}
	}
	return 0, len(query), false
}

// asciiLower lowers ASCII letters only, so byte offsets stay those of s
// even when s is not valid UTF-8.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
