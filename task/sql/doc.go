// Package sql is the text-to-SQL task: questions about a small shop
// database (customers, products, orders) generated from a seed, answered
// as <think>…</think><answer>SELECT …</answer>.
//
// The database is a SQLite file written by the pure-Go modernc.org/sqlite
// driver (no cgo) and read through a sandbox: the file is opened read-only
// and immutable; every connection carries an authorizer that allows
// reading, functions (not load_extension) and recursion and nothing else,
// and SQLITE_LIMIT_ATTACHED is 0; a statement checker admits one SELECT or
// WITH statement of at most 10 kB; each query runs under a 200 ms limit
// enforced by interrupting SQLite, and may return at most 1,000 rows. The
// query is wrapped in a window function so that all of its work happens
// in the first step, the one the driver can interrupt. SQLite checks for
// an interrupt only where its program loops, so the calls of one row run
// to their end: no value or row may exceed 1 kB (SQLITE_LIMIT_LENGTH),
// which bounds one call to about a millisecond, and a query may compile to
// at most 16 calls of the functions whose cost is a product of two
// lengths (trim, replace, instr, like, glob; counted in the compiled
// program, with the copies of subqueries). The limit starts once the query
// holds a connection, a verdict never waits for a connection another query
// holds (the pool grows while more queries run at once), and a timed-out
// outcome is never cached, so a correct query's verdict does not depend on
// what ran beside it. Outcomes are cached within a byte budget (32 MiB).
//
// Rewards, in order: format (the tags, a non-empty answer; block: the
// format description), executes (the query runs within the limits; block:
// the error it raised) and result (the result set equals the reference
// query's, in order only when the reference orders, numbers within a
// relative 1e-6, NULL equal to NULL; block: the reference query).
//
// Import it for its side effect to register the task as "sql"; a Task
// holds the database open, so Close it (it is an io.Closer).
//
// It imports task, reward and task/tags.
//
// It needs no GoMLX (go list -deps names none).
package sql
