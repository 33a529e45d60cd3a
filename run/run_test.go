package run

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

func TestLogAppendReopenTruncate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "metrics.jsonl")
	l, err := OpenLog(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for step := range 5 {
		if err := l.Append(map[string]any{"step": step}); err != nil {
			t.Fatal(err)
		}
	}
	keepTo3 := func(line []byte) bool {
		var r struct{ Step int }
		return json.Unmarshal(line, &r) == nil && r.Step < 3
	}
	l2, err := OpenLog(path, keepTo3)
	if err != nil {
		t.Fatal(err)
	}
	if l2.Len() != 3 {
		t.Fatalf("kept %d lines, want 3", l2.Len())
	}
	if err := l2.Save(); err != nil {
		t.Fatal(err)
	}
	var steps []int
	if err := ReadLines(path, func(b []byte) error {
		var r struct{ Step int }
		steps = append(steps, r.Step)
		return json.Unmarshal(b, &r)
	}); err != nil {
		t.Fatal(err)
	}
	if len(steps) != 3 {
		t.Errorf("file has %d lines after truncation, want 3", len(steps))
	}
	// No temporary files are left behind.
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("folder holds %d entries, want only the log", len(entries))
	}
}

func TestReadJSONErrors(t *testing.T) {
	dir := t.TempDir()
	var v map[string]any
	if err := ReadJSON(filepath.Join(dir, "missing.json"), &v); err == nil {
		t.Error("missing file read without error")
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte("{"), 0o644)
	if err := ReadJSON(bad, &v); err == nil {
		t.Error("malformed JSON read without error")
	}
	if err := WriteJSON(bad, map[string]int{"a": 1}); err != nil {
		t.Fatal(err)
	}
	if err := ReadJSON(bad, &v); err != nil || v["a"] != 1.0 {
		t.Errorf("round trip: %v %v", v, err)
	}
}
