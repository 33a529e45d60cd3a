package run

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// metricsFile writes lines of metrics for the given steps.
func metricsFile(t *testing.T, steps ...int) (string, string) {
	t.Helper()
	var b strings.Builder
	for _, s := range steps {
		fmt.Fprintf(&b, "{\"loss\":0.5,\"step\":%d}\n", s)
	}
	path := filepath.Join(t.TempDir(), MetricsFile)
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, b.String()
}

func TestLogAppendReopenTruncate(t *testing.T) {
	path := filepath.Join(t.TempDir(), MetricsFile)
	l, err := OpenMetrics(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	for step := 1; step <= 5; step++ {
		if err := l.Append(Metrics{KeyStep: float64(step), "x": math.NaN()}); err != nil {
			t.Fatal(err)
		}
	}
	l2, err := OpenMetrics(path, 3)
	if err != nil {
		t.Fatal(err)
	}
	if l2.Len() != 3 {
		t.Fatalf("kept %d lines, want 3", l2.Len())
	}
	if err := l2.Save(); err != nil {
		t.Fatal(err)
	}
	var lines []string
	if err := ReadLines(path, func(b []byte) error { lines = append(lines, string(b)); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(lines) != 3 || lines[2] != `{"step":3,"x":null}` {
		t.Errorf("file after truncation: %q, want 3 lines, NaN written as null", lines)
	}
	// No temporary files are left behind.
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("folder holds %d entries, want only the log", len(entries))
	}
}

// TestOpenMetricsDamage: every kind of damage is an error naming the file
// and the line, and the file is left byte for byte as it was.
func TestOpenMetricsDamage(t *testing.T) {
	for _, tc := range []struct {
		name  string
		body  string
		steps int
		wants []string
	}{
		{"not JSON", "{\"step\":1}\n{\"step\":2,\"lo\n", 1, []string{"line 2", "unexpected end"}},
		{"no step", "{\"step\":1}\n\n{\"loss\":1}\n", 1, []string{"line 3", `no numeric "step"`}},
		{"text step", `{"step":"1"}`, 0, []string{"line 1", `no numeric "step"`}},
		{"fractional step", `{"step":0.5}`, 0, []string{"line 1", "want an integer"}},
		{"huge step", `{"step":1e12}`, 0, []string{"line 1", "want an integer"}},
		{"null", "null", 0, []string{"line 1", "want a JSON object"}},
		{"array", "[1]", 0, []string{"line 1"}},
		{"first step missing", "{\"step\":2}\n", 0, []string{"line 1", "step 2 comes first: step 1 is missing"}},
		{"gap", "{\"step\":1}\n{\"step\":4}\n", 1, []string{"line 2", "step 4 follows step 1: steps 2 to 3 are missing"}},
		{"duplicate", "{\"step\":1}\n{\"step\":2}\n{\"step\":2}\n", 1, []string{"line 3", "step 2 again (line 2 has it)"}},
		{"damage past the checkpoint", "{\"step\":1}\n{\"step\":2}\n{oops}\n", 1, []string{"line 3"}},
		{"short", "{\"step\":1}\n{\"step\":2}\n", 5, []string{"ends after step 2", "checkpoint is at step 5", "steps 3 to 5 are missing"}},
		{"empty", "\n", 1, []string{"holds no step", "step 1 is missing"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), MetricsFile)
			if err := os.WriteFile(path, []byte(tc.body), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := OpenMetrics(path, tc.steps)
			for _, w := range append(tc.wants, path, "repair or restore") {
				if err == nil || !strings.Contains(err.Error(), w) {
					t.Errorf("error %v, want it to mention %q", err, w)
				}
			}
			if b, _ := os.ReadFile(path); string(b) != tc.body {
				t.Errorf("file changed to %q", b)
			}
		})
	}
	missing := filepath.Join(t.TempDir(), MetricsFile)
	if _, err := OpenMetrics(missing, 2); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("a missing log with a checkpoint at step 2: %v", err)
	}
	if l, err := OpenMetrics(missing, 0); err != nil || l.Len() != 0 {
		t.Errorf("a missing log of a fresh run: %v", err)
	}
	path, _ := metricsFile(t, 1, 2, 3, 4)
	for steps, want := range []int{0, 1, 2, 3, 4} {
		l, err := OpenMetrics(path, steps)
		if err != nil || l.Len() != want {
			t.Errorf("checkpoint at %d: %v, kept %d lines, want %d", steps, err, l.Len(), want)
		}
	}
}

func TestOpenSamples(t *testing.T) {
	path := filepath.Join(t.TempDir(), SamplesFile)
	l, err := OpenSamples(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []int{1, 1, 3, 4} {
		if err := l.Append(Sample{Step: s, Response: "r"}); err != nil {
			t.Fatal(err)
		}
	}
	if l, err := OpenSamples(path, 3); err != nil || l.Len() != 3 {
		t.Errorf("cut back to step 3: %v, %d lines, want 3", err, l.Len())
	}
	for name, body := range map[string]string{
		"not JSON":  "{\"step\":1}\n{\"step\n",
		"bad field": "{\"step\":1}\n{\"step\":1,\"tokens\":\"x\"}\n",
		"backwards": "{\"step\":2}\n{\"step\":1}\n",
	} {
		os.WriteFile(path, []byte(body), 0o644)
		if _, err := OpenSamples(path, 1); err == nil || !strings.Contains(err.Error(), path+" line 2") {
			t.Errorf("%s: error %v, want it to name %s line 2", name, err, path)
		}
	}
}

func TestMetricsJSON(t *testing.T) {
	m := Metrics{KeyStep: 7, "a": 0.25, "nan": math.NaN(), "inf": math.Inf(-1)}
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != `{"a":0.25,"inf":null,"nan":null,"step":7}` {
		t.Errorf("marshalled %s", data)
	}
	var back Metrics
	if err := json.Unmarshal([]byte(`{"step":7,"a":0.25,"nan":null,"note":"x","ok":true}`), &back); err != nil {
		t.Fatal(err)
	}
	if len(back) != 2 || back.Step() != 7 || back["a"] != 0.25 {
		t.Errorf("read back %v: want step and a only", back)
	}
}

func TestDiff(t *testing.T) {
	type opt struct {
		LR    float64 `json:"lr"`
		Decay float64 `json:"decay,omitempty"`
	}
	type cfg struct {
		Task    string   `json:"task"`
		Methods []string `json:"methods"`
		Opt     opt      `json:"optimizer"`
	}
	was := cfg{Task: "sql", Methods: []string{"grpo", "span"}, Opt: opt{LR: 2e-4}}
	if d, err := Diff(was, was); err != nil || len(d) != 0 {
		t.Errorf("Diff of equal values: %v %v", d, err)
	}
	now := cfg{Task: "sql", Methods: []string{"span", "grpo"}, Opt: opt{LR: 1e-3, Decay: 0.1}}
	d, err := Diff(was, json.RawMessage(mustJSON(t, now)))
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(d)
	want := `[methods: ["grpo","span"] before, ["span","grpo"] now optimizer.decay: (absent) before, 0.1 now optimizer.lr: 0.0002 before, 0.001 now]`
	if got != want {
		t.Errorf("Diff =\n%s\nwant\n%s", got, want)
	}
	if _, err := Diff(json.RawMessage("{"), was); err == nil {
		t.Error("malformed JSON compared without error")
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
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
