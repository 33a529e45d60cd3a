package sql

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/task"
	"github.com/credo-rl/credo/task/recordtest"
)

// folderOf opens a folder holding the task's database (id sql-<seed>).
func folderOf(tb testing.TB, tk *Task) *Folder {
	tb.Helper()
	f, err := OpenFolder(filepath.Dir(tk.Path()), Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { f.Close() })
	return f
}

func sqlRecord(db, query string) []byte {
	b, _ := json.Marshal(map[string]string{"db_id": db, "query": query, "question": "q"})
	return b
}

// A record naming the task's own database and a prompt's reference query
// gets the verdicts the task's verifiers give, and a top-level ORDER BY
// says ordered exactly where the task's reference is.
func TestFolderRecordsMatchTask(t *testing.T) {
	tk := openTask(t, 3, Options{})
	f := folderOf(t, tk)
	if got := f.IDs(); !slices.Equal(got, []string{"sql-3"}) {
		t.Fatalf("ids %v", got)
	}
	vs := f.RecordRewards()
	for i := range 40 {
		p := tk.Prompt(task.Train, i)
		ref := p.Ref.(Ref)
		rp, err := f.FromRecord(sqlRecord("sql-3", ref.Query))
		if err != nil {
			t.Fatal(err)
		}
		if got := rp.Ref.(*recordRef).Ordered; got != ref.Ordered {
			t.Errorf("%s: ordered %v, want %v", ref.Query, got, ref.Ordered)
		}
		good, _ := tk.Reference(p)
		for _, resp := range []string{good, wellFormed("x", "SELECT nme FROM customers"), wellFormed("x", "SELECT name FROM products"), "no tags"} {
			for k, v := range vs {
				a, errA := v.Verify(context.Background(), rp, resp)
				b, errB := tk.Rewards()[k].Verify(context.Background(), p, resp)
				if errA != nil || errB != nil || !reflect.DeepEqual(a, b) {
					t.Fatalf("%s on %q: %+v (%v), task says %+v (%v)", v.Name(), resp, a, errA, b, errB)
				}
			}
		}
	}
}

func TestFolderLayoutsAndErrors(t *testing.T) {
	tk := openTask(t, 4, Options{})
	dir := t.TempDir()
	data, err := os.ReadFile(tk.Path())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"a.sqlite", "b.db", "c/c.sqlite", ".hidden.db", "notes.txt"} {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), data, 0o644)
	}
	f, err := OpenFolder(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := f.IDs(); !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Errorf("ids %v, want a b c", got)
	}
	recordtest.Refuses(t, f, `{"db_id": "../a", "query": "SELECT 1"}`, `{"db_id": "zz", "query": "SELECT 1"}`,
		`{"db_id": "a"}`, `{"db_id": "a", "query": " "}`, `{"query": "SELECT 1"}`, `nope`, `{"db_id": ".hidden", "query": "SELECT 1"}`)
	p, err := f.FromRecord([]byte(`{"db_id": "c", "query": "SELECT count(*) FROM customers", "question": "How many?", "id": "s1", "query_toks": []}`))
	if err != nil || p.ID != "s1" || p.Text != "How many?" {
		t.Fatalf("%+v %v", p, err)
	}
	v, err := f.RecordRewards()[2].Verify(context.Background(), p, wellFormed("x", "SELECT COUNT(id) FROM customers"))
	if err != nil || v.Score != 1 {
		t.Errorf("result %+v %v", v, err)
	}
	// A write is refused by the sandbox, not run.
	v, err = f.RecordRewards()[1].Verify(context.Background(), p, wellFormed("x", "DELETE FROM customers"))
	if err != nil || v.Score != 0 {
		t.Errorf("executes on DELETE: %+v %v", v, err)
	}
	if _, err := OpenFolder(filepath.Join(dir, "missing"), Options{}); err == nil {
		t.Error("a missing folder: no error")
	}
}

func TestTopLevelOrderBy(t *testing.T) {
	for q, want := range map[string]bool{
		"SELECT a FROM t ORDER BY a":                              true,
		"select a from t order  by a desc":                        true,
		"SELECT a FROM (SELECT a FROM t ORDER BY a) LIMIT 2":      false,
		"SELECT 'ORDER BY' FROM t":                                false,
		"SELECT a FROM t -- ORDER BY a":                           false,
		"SELECT a FROM t WHERE b IN (SELECT b FROM u ORDER BY b)": false,
		"SELECT [order] FROM t":                                   false,
	} {
		if got := topLevelOrderBy(q); got != want {
			t.Errorf("%s: %v, want %v", q, got, want)
		}
	}
}

func FuzzFolderFromRecord(f *testing.F) {
	f.Add([]byte(`{"db_id": "sql-5", "query": "SELECT name FROM customers ORDER BY name", "question": "q"}`))
	f.Add([]byte(`{"db_id": "sql-5", "query": "WITH x AS (SELECT 1) SELECT * FROM x"}`))
	tk := openTask(f, 5, Options{})
	// result fails only when the fuzzed reference query does not run
	recordtest.Fuzz(f, folderOf(f, tk), func(task.Prompt) string { return wellFormed("x", "SELECT 1") },
		func(v reward.Verifier, _ error) bool { return v.Name() == "result" })
}
