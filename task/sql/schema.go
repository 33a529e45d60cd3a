package sql

import (
	"context"
	"fmt"
	"strings"
)

// Schema is the CREATE statements of database id's tables and views, in
// name order, one per line: what a prompt shows the policy of a record's
// database (and its information block). It reads sqlite_master through
// the database's sandbox.
func (f *Folder) Schema(ctx context.Context, id string) (string, error) {
	b, err := f.box(id)
	if err != nil {
		return "", err
	}
	rows, err := b.db.QueryContext(ctx, "SELECT sql FROM sqlite_master WHERE type IN ('table', 'view') AND sql IS NOT NULL ORDER BY name")
	if err != nil {
		return "", fmt.Errorf("schema of %q: %w", id, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return "", fmt.Errorf("schema of %q: %w", id, err)
		}
		out = append(out, strings.Join(strings.Fields(s), " ")+";")
	}
	if err := rows.Err(); err != nil {
		return "", fmt.Errorf("schema of %q: %w", id, err)
	}
	return strings.Join(out, "\n"), nil
}
