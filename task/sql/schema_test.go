package sql

import (
	"context"
	"strings"
	"testing"
)

// The schema of the task's own database is its three tables' CREATE
// statements, in name order; an unknown id is an error.
func TestFolderSchema(t *testing.T) {
	f := folderOf(t, openTask(t, 3, Options{}))
	s, err := f.Schema(context.Background(), "sql-3")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(s, "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT") ||
		!strings.HasPrefix(lines[1], "CREATE TABLE orders") || !strings.HasPrefix(lines[2], "CREATE TABLE products") {
		t.Errorf("schema:\n%s", s)
	}
	if _, err := f.Schema(context.Background(), "nope"); err == nil || !strings.Contains(err.Error(), `no database "nope"`) {
		t.Errorf("unknown id: %v", err)
	}
}
