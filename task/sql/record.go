package sql

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/task"
)

// Folder is a folder of SQLite databases that text-to-SQL records name by
// id (Spider's "db_id"): DIR/<id>.sqlite, .sqlite3 or .db, or Spider's
// layout DIR/<id>/<id>.sqlite. Each database is opened on first use
// through the same sandbox as the task's own (read-only and immutable, the
// authorizer, one SELECT of at most MaxQueryBytes, TimeLimit, MaxRows), and
// stays open until Close. It is a task.RecordReader; safe for concurrent use.
type Folder struct {
	dir   string
	o     Options
	paths map[string]string // id → file

	mu    sync.Mutex
	boxes map[string]*sandbox
}

var _ task.RecordReader = (*Folder)(nil)

// validID is a database id: no path separators, not hidden.
var validID = regexp.MustCompile(`^[A-Za-z0-9_-][A-Za-z0-9_.-]*$`)

// OpenFolder lists the databases in dir (it opens none yet).
func OpenFolder(dir string, o Options) (*Folder, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("sql folder: %w", err)
	}
	f := &Folder{dir: dir, o: o.withDefaults(), paths: map[string]string{}, boxes: map[string]*sandbox{}}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() {
			if p := filepath.Join(dir, name, name+".sqlite"); validID.MatchString(name) && isFile(p) {
				f.paths[name] = p
			}
			continue
		}
		for _, ext := range []string{".sqlite", ".sqlite3", ".db"} {
			if id, ok := strings.CutSuffix(name, ext); ok && validID.MatchString(id) {
				if _, dup := f.paths[id]; !dup {
					f.paths[id] = filepath.Join(dir, name)
				}
			}
		}
	}
	return f, nil
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// IDs lists the folder's database ids, sorted.
func (f *Folder) IDs() []string {
	ids := make([]string, 0, len(f.paths))
	for id := range f.paths {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// Close closes every database the folder opened.
func (f *Folder) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	var errs []error
	for id, b := range f.boxes {
		errs = append(errs, b.db.Close())
		delete(f.boxes, id)
	}
	return errors.Join(errs...)
}

// box opens (once) and returns the sandbox of database id.
func (f *Folder) box(id string) (*sandbox, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if b, ok := f.boxes[id]; ok {
		return b, nil
	}
	p, ok := f.paths[id]
	if !ok {
		return nil, fmt.Errorf("no database %q in %s (%d databases there)", id, f.dir, len(f.paths))
	}
	b, err := newSandbox(p, f.o)
	if err != nil {
		return nil, fmt.Errorf("database %q: %w", id, err)
	}
	f.boxes[id] = b
	return b, nil
}

// RecordFormat is "sql": {"db_id", "query", "question"?}, Spider's names.
func (f *Folder) RecordFormat() string { return "sql" }

// recordRef is what a record's prompt carries: the reference and the
// sandbox of its database.
type recordRef struct {
	Ref
	box *sandbox
}

// FromRecord reads {"db_id", "query", "question"?} into a prompt whose
// Ref holds the reference query (compared in order only when it has a
// top-level ORDER BY) and its database, which it opens if need be. The
// text is the question; the ID is the record's "id" if it has one.
func (f *Folder) FromRecord(record []byte) (task.Prompt, error) {
	var r struct {
		ID       string  `json:"id"`
		DB       *string `json:"db_id"`
		Query    *string `json:"query"`
		Question string  `json:"question"`
	}
	if err := json.Unmarshal(record, &r); err != nil {
		return task.Prompt{}, fmt.Errorf("sql record: %w", err)
	}
	if r.DB == nil || r.Query == nil || strings.TrimSpace(*r.Query) == "" {
		return task.Prompt{}, errors.New("sql record: want \"db_id\" and a non-empty \"query\"")
	}
	if !validID.MatchString(*r.DB) {
		return task.Prompt{}, fmt.Errorf("sql record: db_id %q is not a database id (letters, digits, _ - and ., not starting with .)", *r.DB)
	}
	b, err := f.box(*r.DB)
	if err != nil {
		return task.Prompt{}, fmt.Errorf("sql record: %w", err)
	}
	ref := &recordRef{Ref: Ref{Query: *r.Query, Ordered: topLevelOrderBy(*r.Query)}, box: b}
	return task.Prompt{ID: r.ID, Text: r.Question, Ref: ref}, nil
}

// topLevelOrderBy says whether q sorts its result: ORDER BY outside
// every parenthesis.
func topLevelOrderBy(q string) bool {
	toks := meaningful(lex(q))
	depth := 0
	for i, t := range toks {
		switch {
		case t.kind == tokPunct && t.text(q) == "(":
			depth++
		case t.kind == tokPunct && t.text(q) == ")":
			depth--
		case depth == 0 && isWord(q, t, "ORDER") && i+1 < len(toks) && isWord(q, toks[i+1], "BY"):
			return true
		}
	}
	return false
}

// RecordRewards are format, executes and result, as the task's, each
// running the query in the database the prompt names.
func (f *Folder) RecordRewards() []reward.Verifier {
	return []reward.Verifier{formatVerifier{}, recordVerifier{"executes"}, recordVerifier{"result"}}
}

// recordVerifier is the executes or result verifier on the database of a
// record's prompt.
type recordVerifier struct{ name string }

func (v recordVerifier) Name() string { return v.name }

// Verify runs the task's own verifier of that name with the prompt's sandbox.
func (v recordVerifier) Verify(ctx context.Context, p reward.Prompt, resp string) (reward.Verdict, error) {
	rr, ok := p.Ref.(*recordRef)
	if !ok || rr == nil {
		return reward.Verdict{}, fmt.Errorf("sql %s: prompt %q carries %T, not a record's reference", v.name, p.ID, p.Ref)
	}
	q := reward.Prompt{ID: p.ID, Text: p.Text, Ref: rr.Ref}
	if v.name == "executes" {
		return executesVerifier{rr.box}.Verify(ctx, q, resp)
	}
	return resultVerifier{rr.box}.Verify(ctx, q, resp)
}
