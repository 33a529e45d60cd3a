package rl

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/credo-rl/credo/model"
	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/tokenizer"

	_ "github.com/credo-rl/credo/task/arith"
	_ "github.com/credo-rl/credo/task/ifeval"
	_ "github.com/credo-rl/credo/task/sql"
	_ "github.com/credo-rl/credo/task/toolcall"
)

var microOnce struct {
	sync.Once
	dir string
	err error
}

// microPolicy is a fresh tiny policy saved once per test binary: enough to
// run every part of the loop in a fraction of a second per step.
func microPolicy(t testing.TB) string {
	t.Helper()
	microOnce.Do(func() {
		tok, err := tokenizer.NewBytes()
		if err != nil {
			microOnce.err = err
			return
		}
		c := model.Tiny(tok.VocabSize())
		c.MaxPositionEmbeddings = 1024
		m, err := model.New(c, 3)
		if err != nil {
			microOnce.err = err
			return
		}
		dir, err := os.MkdirTemp("", "credo-rl-test")
		if err != nil {
			microOnce.err = err
			return
		}
		microOnce.dir = filepath.Join(dir, "micro")
		microOnce.err = (&policy.Policy{Model: m, Tok: tok}).Save(microOnce.dir)
	})
	if microOnce.err != nil {
		t.Fatal(microOnce.err)
	}
	return microOnce.dir
}

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
	if microOnce.dir != "" {
		os.RemoveAll(filepath.Dir(microOnce.dir))
	}
	os.Exit(code)
}
