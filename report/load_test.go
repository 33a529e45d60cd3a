package report

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestParseMetrics(t *testing.T) {
	in := `{"step":1,"reward/a/mean":0.5,"loss/kl":null,"note":"text","ok":true}

{"step":0,"reward/a/mean":0.25}
{"step":3,"reward/a/mean":1}
{"step":1,"reward/a/mean":0.75}
`
	steps, err := ParseMetrics(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != 4 || steps[2] != nil {
		t.Fatalf("steps %v: want 4 with step 2 missing", steps)
	}
	if steps[1]["reward/a/mean"] != 0.75 {
		t.Errorf("a later line for step 1 must replace the earlier one: %v", steps[1])
	}
	for _, k := range []string{"loss/kl", "note", "ok"} {
		if _, ok := steps[1][k]; ok {
			t.Errorf("non-numeric %q kept", k)
		}
	}
	r := &Run{Metrics: steps}
	got := r.Series("reward/a/mean")
	want := []float64{0.25, 0.75, nan, 1}
	for i := range want {
		if !same(got[i], want[i]) {
			t.Fatalf("Series = %v, want %v", got, want)
		}
	}
}

func TestParseMetricsErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"{\"step\":0}\n{\"step\":1", "line 2"},
		{`{"reward/a/mean":1}`, `no numeric "step"`},
		{`{"step":"1"}`, `no numeric "step"`},
		{`{"step":-1}`, "want an integer"},
		{`{"step":1.5}`, "want an integer"},
		{`{"step":1e12}`, "want an integer"},
		{`[1,2]`, "line 1"},
		{`null`, "want a JSON object"},
	} {
		_, err := ParseMetrics(strings.NewReader(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseMetrics(%q) error %v, want it to mention %q", tc.in, err, tc.want)
		}
	}
}

func TestLoadRun(t *testing.T) {
	dir := t.TempDir()
	writeFixtureRun(t, dir, "span", 7, 10, 6)
	r, err := LoadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	if r.Task != "toolcall" || r.Method != "span" || r.Seed != 7 || r.Steps != 10 || len(r.Metrics) != 6 || !r.Incomplete {
		t.Errorf("run %+v", r)
	}
	if len(r.Samples) != 24 || len(r.Samples[0].Relevance["call"]) != len(r.Samples[0].Tokens) {
		t.Errorf("%d samples; first %+v", len(r.Samples), r.Samples[0])
	}
	if got := r.Rewards(); !slices.Equal(got, []string{"format", "call"}) {
		t.Errorf("Rewards() = %v, want the verdicts' order [format call]", got)
	}
	if os.Remove(filepath.Join(dir, "samples.jsonl")) != nil {
		t.Fatal("remove")
	}
	r, err = LoadRun(dir)
	if err != nil || len(r.Samples) != 0 {
		t.Fatalf("without samples.jsonl: %v, %d samples", err, len(r.Samples))
	}
	if got := r.Rewards(); !slices.Equal(got, []string{"call", "format"}) {
		t.Errorf("Rewards() without samples = %v, want sorted metric names", got)
	}
}

func TestLoadRunErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edit  func(dir string)
		wants []string
	}{
		{"no config", func(d string) { os.Remove(filepath.Join(d, "config.json")) }, []string{"config.json", "no such file"}},
		{"bad config", func(d string) { os.WriteFile(filepath.Join(d, "config.json"), []byte("{"), 0o644) }, []string{"config.json", "unexpected end"}},
		{"no metrics", func(d string) { os.Remove(filepath.Join(d, "metrics.jsonl")) }, []string{"metrics.jsonl", "no such file"}},
		{"bad metrics line", func(d string) {
			os.WriteFile(filepath.Join(d, "metrics.jsonl"), []byte("{\"step\":0}\n{\"step\":1}\n{oops\n"), 0o644)
		}, []string{"metrics.jsonl", "line 3"}},
		{"bad samples line", func(d string) { os.WriteFile(filepath.Join(d, "samples.jsonl"), []byte(`{"step":"x"}`), 0o644) }, []string{"samples.jsonl", "line 1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFixtureRun(t, dir, "grpo", 1, 3, 3)
			tc.edit(dir)
			_, err := LoadRun(dir)
			for _, w := range tc.wants {
				if err == nil || !strings.Contains(err.Error(), w) {
					t.Errorf("error %v, want it to mention %q", err, w)
				}
			}
		})
	}
}

func TestLoadCompare(t *testing.T) {
	dir := t.TempDir()
	writeFixtureCompare(t, dir, []uint64{1, 2}, 12)
	c, err := LoadCompare(dir)
	if err != nil {
		t.Fatal(err)
	}
	if c.Task != "toolcall" || !slices.Equal(c.Methods, fixtureMethods) || !slices.Equal(c.Seeds, []uint64{1, 2}) ||
		c.Steps != 12 || c.Threshold != 0.8 || c.Window != 5 || c.Warmup != "warmup" || len(c.Runs) != 8 {
		t.Errorf("comparison %+v", c)
	}
	if rs := c.MethodRuns("mrtpo"); len(rs) != 2 || rs[1].Seed != 2 || rs[0].Incomplete {
		t.Errorf("mrtpo runs %+v", rs)
	}
	if got := c.Rewards(); !slices.Equal(got, []string{"format", "call"}) {
		t.Errorf("Rewards() = %v", got)
	}
	// Load detects the kind of directory.
	if c2, err := Load(dir); err != nil || len(c2.Runs) != 8 {
		t.Errorf("Load(compare dir): %v", err)
	}
	one := filepath.Join(dir, "runs", "span", "seed-2")
	c1, err := Load(one)
	if err != nil || len(c1.Runs) != 1 || !slices.Equal(c1.Methods, []string{"span"}) || !slices.Equal(c1.Seeds, []uint64{2}) || c1.Threshold != DefaultThreshold || c1.Window != DefaultWindow {
		t.Errorf("Load(run dir) = %+v, %v", c1, err)
	}
	if _, err := Load(t.TempDir()); err == nil || !strings.Contains(err.Error(), "neither a compare directory") {
		t.Errorf("Load(empty dir) error %v", err)
	}
}

func TestLoadCompareErrors(t *testing.T) {
	for _, tc := range []struct {
		name, compare string
		want          string
	}{
		{"malformed", `{"runs": [`, "compare.json"},
		{"no runs", `{"task":"toolcall","methods":["grpo"],"runs":[]}`, "lists no runs"},
		{"negative threshold", `{"threshold":-1,"runs":[{"method":"grpo","seed":1,"dir":"r"}]}`, "must not be negative"},
		{"run without dir", `{"runs":[{"method":"grpo","seed":1}]}`, "has no dir"},
		{"missing run", `{"runs":[{"method":"gdpo","seed":4,"dir":"runs/nothing"}]}`, "gdpo seed 4"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "compare.json"), []byte(tc.compare), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := LoadCompare(dir)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want it to mention %q", err, tc.want)
			}
		})
	}
	if _, err := LoadCompare(t.TempDir()); err == nil || !strings.Contains(err.Error(), "compare.json") {
		t.Errorf("no compare.json: error %v", err)
	}
}

// TestLoadCompareDefaults: a compare.json without threshold or window
// takes the defaults, and a run without configured steps takes the
// comparison's.
func TestLoadCompareDefaults(t *testing.T) {
	dir := t.TempDir()
	writeFixtureRun(t, filepath.Join(dir, "a"), "grpo", 3, 10, 4)
	writeJSONFile(t, filepath.Join(dir, "a", "config.json"), map[string]any{"task": "toolcall", "method": "grpo"})
	writeJSONFile(t, filepath.Join(dir, "compare.json"), map[string]any{"steps": 10, "runs": []map[string]any{{"method": "grpo", "seed": 3, "dir": "a"}}})
	c, err := LoadCompare(dir)
	if err != nil {
		t.Fatal(err)
	}
	if c.Threshold != DefaultThreshold || c.Window != DefaultWindow || c.Task != "toolcall" || !slices.Equal(c.Methods, []string{"grpo"}) {
		t.Errorf("comparison %+v", c)
	}
	if r := c.Runs[0]; r.Steps != 10 || !r.Incomplete || math.IsNaN(r.Series("reward/call/mean")[3]) {
		t.Errorf("run %+v", r)
	}
}
