package rl

import (
	"fmt"
	"path/filepath"

	"github.com/credo-rl/credo/run"
)

// noteRestart says that a resumed run has no checkpoint yet (it stopped
// before its first), so it starts over from step 0 with its initial
// policy, and how many logged steps that drops: a resume that silently
// begins again looks like one that lost its checkpoints.
func (t *Trainer) noteRestart() {
	logged := 0
	run.ReadLines(filepath.Join(t.c.Out, run.MetricsFile), func([]byte) error { logged++; return nil })
	dropped := ""
	if logged > 0 {
		dropped = fmt.Sprintf("; the %d step(s) metrics.jsonl logged are dropped and done again", logged)
	}
	fmt.Fprintf(t.log, "resuming %s: it has no checkpoint yet (it stopped before its first, due every %d steps), so it restarts from step 0 with %s%s\n",
		t.c.Out, t.c.CheckpointEvery, t.c.Init, dropped)
}
