package lab

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/credo-rl/credo/run"
)

// TestSameSettingsRecordsPath: a comparison started with a records file
// named relatively resumes when the file is named absolutely, or from
// another working directory, and is refused for another file (a
// comparison's compare.json once held "../data/x.jsonl" while its runs held
// the absolute path, so no spelling resumed both).
func TestSameSettingsRecordsPath(t *testing.T) {
	root := t.TempDir()
	data := filepath.Join(root, "data")
	home := filepath.Join(root, "home")
	for _, d := range []string{data, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"x.jsonl", "y.jsonl"} {
		if err := os.WriteFile(filepath.Join(data, f), []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(home)
	manifest := func(records string) run.Manifest {
		train, _ := json.Marshal(map[string]any{"records": records, "records_sha256": "ab", "steps": 4})
		return run.Manifest{Task: "records-ifeval", Train: train}
	}
	saved := manifest("../data/x.jsonl")
	dir := filepath.Join(home, "cmp")
	for _, now := range []string{filepath.Join(data, "x.jsonl"), "../data/x.jsonl", filepath.Join(home, "..", "data", "x.jsonl")} {
		if err := sameSettings(dir, saved, manifest(now)); err != nil {
			t.Errorf("records %q after %q: %v", now, "../data/x.jsonl", err)
		}
	}
	if err := sameSettings(dir, saved, manifest(filepath.Join(data, "y.jsonl"))); err == nil || !strings.Contains(err.Error(), "train.records") {
		t.Errorf("another records file resumed: %v", err)
	}
	other := manifest(filepath.Join(data, "x.jsonl"))
	other.Train = json.RawMessage(strings.Replace(string(other.Train), `"ab"`, `"cd"`, 1))
	if err := sameSettings(dir, saved, other); err == nil || !strings.Contains(err.Error(), "records_sha256") {
		t.Errorf("the same path with other contents resumed: %v", err)
	}
}
