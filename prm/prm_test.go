package prm

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/credo-rl/credo/model"
	"github.com/credo-rl/credo/task/arith"
)

// tinyPRM is an untrained PRM on the tiny preset.
func tinyPRM(t testing.TB, seed uint64) *PRM {
	t.Helper()
	tok := mustBytes()
	c, err := ModelConfig("tiny", tok.VocabSize())
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.New(c, seed)
	if err != nil {
		t.Fatal(err)
	}
	p, err := New(m, tok, Info{Task: "arith", Separator: arith.Separator})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSaveLoad: a saved PRM loads back with the same scores and splitter,
// and replaces an older folder whole.
func TestSaveLoad(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "prm")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "stale"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := tinyPRM(t, 1)
	if err := p.Save(dir, map[string]any{"extra.json": map[string]int{"a": 1}}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{InfoFile, "config.json", "model.safetensors", "extra.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("missing %s: %v", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "stale")); err == nil {
		t.Error("the old folder's file survived the save")
	}
	q, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if q.Info != p.Info || q.Context != p.Context {
		t.Errorf("loaded info %+v context %d, saved %+v %d", q.Info, q.Context, p.Info, p.Context)
	}
	exs := arithExamples(t, 4, 1)
	a, _, err := p.scoreLabeled(ctx, exs)
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := q.scoreLabeled(ctx, exs)
	if err != nil {
		t.Fatal(err)
	}
	for i := range a {
		if !slices.Equal(a[i], b[i]) {
			t.Errorf("example %d: step logits %v before saving, %v after", i, a[i], b[i])
		}
	}
	r := "1 + 2 = 3\n3 * 4 = 12\nanswer: 12"
	if !slices.Equal(p.Split("", r), q.Split("", r)) {
		t.Error("the loaded splitter differs")
	}
	lin, _ := linearPRM(mustBytes(), 1)
	if err := lin.Save(filepath.Join(t.TempDir(), "x"), nil); err == nil {
		t.Error("saving a PRM whose model is not a *model.Model succeeded")
	}
}

func TestLoadErrors(t *testing.T) {
	empty := t.TempDir()
	if _, err := Load(empty); err == nil || !strings.Contains(err.Error(), "not a PRM folder") {
		t.Errorf("empty folder: %v", err)
	}
	bad := t.TempDir()
	if err := os.WriteFile(filepath.Join(bad, InfoFile), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(bad); err == nil || !strings.Contains(err.Error(), InfoFile) {
		t.Errorf("bad %s: %v", InfoFile, err)
	}
	noModel := t.TempDir()
	if err := os.WriteFile(filepath.Join(noModel, InfoFile), []byte(`{"task":"arith"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := mustBytes().Save(noModel); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(noModel); err == nil {
		t.Error("a folder without a model loaded")
	}
	lm, err := model.New(model.Tiny(300), 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(lm, mustBytes(), Info{}); err == nil || !strings.Contains(err.Error(), "scoring head") {
		t.Errorf("a language model was accepted as a PRM: %v", err)
	}
}
