package records

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/credo-rl/credo/internal/shareddata"
	"github.com/credo-rl/credo/task"
)

// runBFCLScript runs scripts/bfcl-records.py on questions and returns its
// records file, its stderr, and its error.
func runBFCLScript(t *testing.T, questions string) (string, string, error) {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed")
	}
	out := filepath.Join(t.TempDir(), "bfcl.jsonl")
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var stderr strings.Builder
	cmd := exec.Command(py, filepath.Join("..", "..", "scripts", "bfcl-records.py"), questions)
	cmd.Stdout, cmd.Stderr = f, &stderr
	err = cmd.Run()
	return out, stderr.String(), err
}

// TestBFCLRecordsScript: the script README's users run joins BFCL's two
// files into the records the tests' own join makes (the same prompts in
// both splits), and refuses a question without an answer, naming it.
func TestBFCLRecordsScript(t *testing.T) {
	const name = "BFCL_v4_simple_python.json"
	got, _, err := runBFCLScript(t, shareddata.Path(t, "bfcl/"+name))
	if err != nil {
		t.Fatalf("bfcl-records.py: %v", err)
	}
	// The same records in another key order (the test's join sorts them):
	// the same prompts, split by their own lines' hashes.
	texts := func(r *Task) map[string]string {
		m := map[string]string{}
		for _, split := range []task.Split{task.Train, task.Test} {
			for i := range r.Len(split) {
				p := r.Prompt(split, i)
				m[p.ID] = p.Text
			}
		}
		return m
	}
	a, b := texts(open(t, got, Options{Format: "bfcl"})), texts(open(t, bfclRecords(t, name), Options{Format: "bfcl"}))
	if len(a) != len(b) || len(a) < 400 {
		t.Fatalf("%d prompts from the script, %d from the test's join", len(a), len(b))
	}
	for id, text := range b {
		if a[id] != text {
			t.Fatalf("prompt %s differs:\n%q\n%q", id, a[id], text)
		}
	}

	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "possible_answer"), 0o755)
	q := `{"id": "a", "question": [], "function": []}` + "\n" + `{"id": "b", "question": [], "function": []}` + "\n"
	os.WriteFile(filepath.Join(dir, "q.json"), []byte(q), 0o644)
	os.WriteFile(filepath.Join(dir, "possible_answer", "q.json"), []byte(`{"id": "a", "ground_truth": []}`+"\n"), 0o644)
	out, stderr, err := runBFCLScript(t, filepath.Join(dir, "q.json"))
	if err == nil || !strings.Contains(stderr, "first b") {
		t.Errorf("a question without an answer: err %v, stderr %q", err, stderr)
	}
	if data, _ := os.ReadFile(out); len(data) != 0 {
		t.Errorf("a refused join wrote %d bytes", len(data))
	}
}
