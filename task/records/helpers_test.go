package records

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/credo-rl/credo/internal/shareddata"
	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/task"
	"github.com/credo-rl/credo/task/sql"
)

// writeLines writes lines to a fresh file and returns its path.
func writeLines(tb testing.TB, lines ...string) string {
	tb.Helper()
	p := filepath.Join(tb.TempDir(), "records.jsonl")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		tb.Fatal(err)
	}
	return p
}

func open(tb testing.TB, path string, o Options) *Task {
	tb.Helper()
	t, err := Open(context.Background(), path, o)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { t.Close() })
	return t
}

// bfclRecords merges a BFCL question file with its possible answers into
// records of the bfcl format, in a fresh file.
func bfclRecords(tb testing.TB, name string) string {
	tb.Helper()
	answers := map[string]json.RawMessage{}
	readJSONL(tb, shareddata.Path(tb, "bfcl/possible_answer/"+name), func(m map[string]json.RawMessage) {
		var id string
		json.Unmarshal(m["id"], &id)
		answers[id] = m["ground_truth"]
	})
	var lines []string
	readJSONL(tb, shareddata.Path(tb, "bfcl/"+name), func(m map[string]json.RawMessage) {
		var id string
		json.Unmarshal(m["id"], &id)
		m["ground_truth"] = answers[id]
		b, _ := json.Marshal(m)
		lines = append(lines, string(b))
	})
	return writeLines(tb, lines...)
}

func readJSONL(tb testing.TB, path string, f func(map[string]json.RawMessage)) {
	tb.Helper()
	fh, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			tb.Fatal(err)
		}
		f(m)
	}
}

// sqlRecords writes n records of the sql task's own database (its
// generated questions and reference queries) beside it, and returns the
// records file.
func sqlRecords(tb testing.TB, n int) string {
	tb.Helper()
	tk, err := sql.Open(task.Config{Seed: 3, Dir: tb.TempDir()}, sql.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { tk.Close() })
	id := strings.TrimSuffix(filepath.Base(tk.Path()), filepath.Ext(tk.Path()))
	var lines []string
	seen := map[string]bool{}
	for i := 0; len(lines) < n; i++ {
		p := tk.Prompt(task.Train, i)
		_, q, _ := strings.Cut(p.Text, "Question: ")
		if seen[q] {
			continue
		}
		seen[q] = true
		b, _ := json.Marshal(map[string]string{"db_id": id, "query": p.Ref.(sql.Ref).Query, "question": q})
		lines = append(lines, string(b))
	}
	p := filepath.Join(filepath.Dir(tk.Path()), "records.jsonl")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		tb.Fatal(err)
	}
	return p
}

// scores are the verdicts' scores of resp, by reward name (Skip: -1).
func scores(tb testing.TB, vs []reward.Verifier, p task.Prompt, resp string) map[string]float64 {
	tb.Helper()
	out := map[string]float64{}
	for _, v := range vs {
		d, err := v.Verify(context.Background(), p, resp)
		if err != nil {
			tb.Fatalf("%s on %s: %v", v.Name(), p.ID, err)
		}
		out[v.Name()] = d.Score
		if d.Skip {
			out[v.Name()] = -1
		}
	}
	return out
}
