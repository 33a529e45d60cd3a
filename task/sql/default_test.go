package sql

import (
	"testing"

	"github.com/credo-rl/credo/task"
	"github.com/credo-rl/credo/task/tasktest"
)

// TestDefaultStreamUnchanged pins the default difficulty: the first
// prompts of both splits and the first demonstrations are exactly those
// the task produced before it had difficulty settings (the golden file was
// written from that code), so existing seeds, warm-ups and results stay
// valid.
func TestDefaultStreamUnchanged(t *testing.T) {
	tk, err := task.New("sql", task.Config{Seed: 1, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := tk.(interface{ Close() error }); ok {
		defer c.Close()
	}
	tasktest.Golden(t, "testdata/default_stream.golden", tasktest.Stream(tk, 40, 20))
}
