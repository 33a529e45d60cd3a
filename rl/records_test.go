package rl

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/credo-rl/credo/report"
	"github.com/credo-rl/credo/run"
)

// TestReportReadsWhatRLWrites: every line a real run writes to
// metrics.jsonl and samples.jsonl reads back through report with every
// key and value, and config.json names the run as configured.
func TestReportReadsWhatRLWrites(t *testing.T) {
	// ifeval's constraints are met by chance, so the micro policy's
	// rewards vary and span computes relevance.
	c := microConfig(t, "ifeval", "span")
	c.Steps, c.EvalPrompts = 3, 2
	if err := newTrainer(t, c, false).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	r, err := report.LoadRun(c.Out)
	if err != nil {
		t.Fatal(err)
	}
	if r.Task != c.Task || r.Method != c.Method || r.Steps != c.Steps || r.Seed != c.Seed || r.Incomplete {
		t.Errorf("report names the run %+v", r)
	}
	// asJSON decodes a line, or re-encodes a record, into generic JSON.
	asJSON := func(v any) any {
		data, ok := v.([]byte)
		if !ok {
			var err error
			if data, err = json.Marshal(v); err != nil {
				t.Fatal(err)
			}
		}
		var out any
		if err := json.Unmarshal(data, &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	var lines [][]byte
	run.ReadLines(filepath.Join(c.Out, run.MetricsFile), func(b []byte) error { lines = append(lines, append([]byte(nil), b...)); return nil })
	if len(lines) != c.Steps || len(r.Metrics) != c.Steps {
		t.Fatalf("%d metric lines, report read %d steps", len(lines), len(r.Metrics))
	}
	for i, line := range lines {
		if want, got := asJSON(line), asJSON(r.Metrics[i]); !reflect.DeepEqual(want, got) {
			t.Errorf("step %d: rl wrote %v\nreport read %v", i, want, got)
		}
	}
	eval := false
	for k := range r.Metrics[c.Steps-1] {
		eval = eval || strings.HasPrefix(k, run.EvalKey("greedy", ""))
	}
	if !eval {
		t.Errorf("the last step's evaluation is missing: %v", r.Metrics[c.Steps-1])
	}
	lines = nil
	run.ReadLines(filepath.Join(c.Out, run.SamplesFile), func(b []byte) error { lines = append(lines, append([]byte(nil), b...)); return nil })
	if len(lines) == 0 || len(lines) != len(r.Samples) {
		t.Fatalf("%d sample lines, report read %d", len(lines), len(r.Samples))
	}
	relevance := false
	for i, line := range lines {
		if want, got := asJSON(line), asJSON(r.Samples[i]); !reflect.DeepEqual(want, got) {
			t.Errorf("sample %d: rl wrote %v\nreport read %v", i, want, got)
		}
		relevance = relevance || len(r.Samples[i].Relevance) > 0
	}
	if !relevance {
		t.Error("span logged no relevance: the test would not cover it")
	}
}
