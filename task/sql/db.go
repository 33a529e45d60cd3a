package sql

import (
	"context"
	dbsql "database/sql"
	"database/sql/driver"
	"fmt"
	"net/url"
	"os"
	"path/filepath"

	sqlite "modernc.org/sqlite"
)

// writeDB creates the database file at path from d. It writes a temporary
// file beside path and renames it, so a reader never sees a half-written
// database and an existing file (from a run with the same seed) is replaced
// whole.
func writeDB(ctx context.Context, path string, d *dataset) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".sql-*.db")
	if err != nil {
		return fmt.Errorf("create database: %w", err)
	}
	tmpName := tmp.Name()
	tmp.Close()
	defer func() {
		if err != nil {
			os.Remove(tmpName)
			os.Remove(tmpName + "-journal")
		}
	}()
	db := dbsql.OpenDB(connector{drv: &sqlite.Driver{}, dsn: tmpName})
	defer func() {
		if cerr := db.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("close database: %w", cerr)
		}
	}()
	if err := fill(ctx, db, d); err != nil {
		return fmt.Errorf("fill database %s: %w", tmpName, err)
	}
	if err := db.Close(); err != nil {
		return fmt.Errorf("close database: %w", err)
	}
	if err := os.Rename(tmpName, path); err != nil {
		return fmt.Errorf("install database: %w", err)
	}
	return nil
}

func fill(ctx context.Context, db *dbsql.DB, d *dataset) error {
	if _, err := db.ExecContext(ctx, ddl); err != nil {
		return fmt.Errorf("create tables: %w", err)
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	insert := func(query string, rows int, args func(i int) []any) error {
		st, err := tx.PrepareContext(ctx, query)
		if err != nil {
			return err
		}
		defer st.Close()
		for i := range rows {
			if _, err := st.ExecContext(ctx, args(i)...); err != nil {
				return fmt.Errorf("%s row %d: %w", query, i, err)
			}
		}
		return nil
	}
	if err := insert("INSERT INTO customers VALUES (?, ?, ?, ?)", len(d.customers), func(i int) []any {
		c := d.customers[i]
		return []any{c.id, c.name, c.city, c.joined}
	}); err != nil {
		return err
	}
	if err := insert("INSERT INTO products VALUES (?, ?, ?, ?)", len(d.products), func(i int) []any {
		p := d.products[i]
		return []any{p.id, p.name, p.category, float64(p.cents) / 100}
	}); err != nil {
		return err
	}
	if err := insert("INSERT INTO orders VALUES (?, ?, ?, ?, ?)", len(d.orders), func(i int) []any {
		o := d.orders[i]
		return []any{o.id, o.customer, o.product, o.quantity, o.day}
	}); err != nil {
		return err
	}
	return tx.Commit()
}

// readOnlyDSN opens path read-only and immutable: SQLite opens the file
// with O_RDONLY, takes no locks and never writes a journal, so no statement
// whatever can change it. query_only and defensive mode are set as well.
func readOnlyDSN(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("database path: %w", err)
	}
	u := url.URL{Scheme: "file", Path: abs, RawQuery: "mode=ro&immutable=1&_query_only=1&_defensive=1"}
	return u.String(), nil
}

// connector opens connections with a driver of our own (so nothing
// registered on the process-wide "sqlite" driver reaches them) and, when
// authorize is set, installs it on every connection before database/sql
// sees it.
type connector struct {
	drv       *sqlite.Driver
	dsn       string
	authorize sqlite.AuthorizerFn
}

// Connect implements driver.Connector.
func (c connector) Connect(context.Context) (driver.Conn, error) {
	conn, err := c.drv.Open(c.dsn)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", c.dsn, err)
	}
	if c.authorize == nil {
		return conn, nil
	}
	ar, ok := conn.(sqlite.AuthorizerRegisterer)
	if !ok {
		conn.Close()
		return nil, fmt.Errorf("open %s: driver connection %T has no authorizer", c.dsn, conn)
	}
	if err := ar.RegisterAuthorizer(c.authorize); err != nil {
		conn.Close()
		return nil, fmt.Errorf("open %s: install authorizer: %w", c.dsn, err)
	}
	return conn, nil
}

// Driver implements driver.Connector.
func (c connector) Driver() driver.Driver { return c.drv }

// authorize lets a statement read tables, call functions and recurse, and
// nothing else: no ATTACH, no PRAGMA, no write, no transaction, and no
// load_extension even if extension loading were enabled.
func authorize(action sqlite.AuthorizerActionCode, _, arg2, _, _ string) sqlite.AuthorizerReturnCode {
	switch action {
	case sqlite.AuthSelect, sqlite.AuthRead, sqlite.AuthRecursive:
		return sqlite.AuthorizerOK
	case sqlite.AuthFunction:
		switch arg2 { // for SQLITE_FUNCTION, the second argument is the function's name
		case "load_extension", "fts3_tokenizer":
			return sqlite.AuthorizerDeny
		}
		return sqlite.AuthorizerOK
	}
	return sqlite.AuthorizerDeny
}
