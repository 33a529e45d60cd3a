package rl

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/credo-rl/credo/policy/policytest"

	_ "github.com/credo-rl/credo/task/arith"
	_ "github.com/credo-rl/credo/task/ifeval"
	_ "github.com/credo-rl/credo/task/sql"
	_ "github.com/credo-rl/credo/task/toolcall"
)

// microPolicy is a fresh tiny policy saved once per test binary.
func microPolicy(t testing.TB) string { return policytest.Dir(t) }

// microConfig is a run of a few seconds on the micro policy.
func microConfig(t testing.TB, taskName, method string) Config {
	c := DefaultConfig()
	c.Task, c.Method = taskName, method
	c.Init = microPolicy(t)
	c.Out = filepath.Join(t.TempDir(), "run")
	c.Steps, c.PromptsPerStep, c.Group, c.MaxTokens = 3, 2, 3, 24
	c.EvalEvery, c.EvalPrompts = 0, 2
	c.CheckpointEvery = 0
	c.Peak = 1e-3
	return c
}

func newTrainer(t testing.TB, c Config, resume bool, opts ...Option) *Trainer {
	t.Helper()
	tr, err := New(context.Background(), c, resume, io.Discard, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func TestMain(m *testing.M) {
	code := m.Run()
	policytest.Remove()
	os.Exit(code)
}
