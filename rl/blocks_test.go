package rl

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/credo-rl/credo/run"
)

// With BlockEvery, a replay method's steps log the block diagnostic; a
// method that does not replay logs none.
func TestBlockEveryLogs(t *testing.T) {
	for _, method := range []string{"mrtpo", "gdpo"} {
		c := microConfig(t, "toolcall", method)
		c.Steps, c.BlockEvery, c.EvalPrompts = 2, 1, 2
		if err := newTrainer(t, c, false).Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		lines := 0
		err := run.ReadLines(filepath.Join(c.Out, "metrics.jsonl"), func(line []byte) error {
			var m map[string]float64
			if err := json.Unmarshal(line, &m); err != nil {
				return err
			}
			_, logged := m["blocks/right_over_wrong"]
			if _, js := m["blocks/replay_js/call"]; logged != (method == "mrtpo") || js != logged {
				t.Errorf("%s: metrics %v", method, m)
			}
			lines++
			return nil
		})
		if err != nil || lines != 2 {
			t.Fatalf("%s: %d lines (%v)", method, lines, err)
		}
	}
}
