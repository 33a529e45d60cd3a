package policytest

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/credo-rl/credo/model"
	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/tokenizer"
)

var once struct {
	sync.Once
	dir string
	err error
}

// Dir is the folder of the tiny policy, saved on first use.
func Dir(t testing.TB) string {
	t.Helper()
	once.Do(func() {
		tok, err := tokenizer.NewBytes()
		if err != nil {
			once.err = err
			return
		}
		c := model.Tiny(tok.VocabSize())
		c.MaxPositionEmbeddings = 1024
		m, err := model.New(c, 3)
		if err != nil {
			once.err = err
			return
		}
		dir, err := os.MkdirTemp("", "credo-test-policy")
		if err != nil {
			once.err = err
			return
		}
		once.dir = filepath.Join(dir, "micro")
		once.err = (&policy.Policy{Model: m, Tok: tok}).Save(once.dir)
	})
	if once.err != nil {
		t.Fatal(once.err)
	}
	return once.dir
}

// Remove deletes the saved policy: call it from TestMain after m.Run.
func Remove() {
	if once.dir != "" {
		os.RemoveAll(filepath.Dir(once.dir))
	}
}
