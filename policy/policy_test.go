package policy

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/credo-rl/credo/model"
	"github.com/credo-rl/credo/model/hf"
	"github.com/credo-rl/credo/sample"
	"github.com/credo-rl/credo/tokenizer"
)

func tiny(t *testing.T) *Policy {
	t.Helper()
	tok, err := tokenizer.NewBytes()
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.New(model.Tiny(tok.VocabSize()), 1)
	if err != nil {
		t.Fatal(err)
	}
	return &Policy{Model: m, Tok: tok}
}

func TestSaveLoadGenerate(t *testing.T) {
	p := tiny(t)
	dir := filepath.Join(t.TempDir(), "ckpt")
	if err := p.Save(dir); err != nil {
		t.Fatal(err)
	}
	if err := p.Save(dir); err != nil { // replacing an existing checkpoint
		t.Fatal(err)
	}
	back, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	c := sample.Config{MaxTokens: 10, Temperature: 0, TopP: 1}
	a, err := p.Generate(context.Background(), []string{"hello"}, 1, c)
	if err != nil {
		t.Fatal(err)
	}
	b, err := back.Generate(context.Background(), []string{"hello"}, 1, c)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a[0].Tokens, b[0].Tokens) {
		t.Errorf("reloaded policy answers %v, original %v", b[0].Tokens, a[0].Tokens)
	}
	entries, _ := os.ReadDir(filepath.Dir(dir))
	if len(entries) != 1 {
		t.Errorf("save left %d entries beside the checkpoint", len(entries)-1)
	}
}

func TestLoadWithoutTokenizer(t *testing.T) {
	p := tiny(t)
	dir := t.TempDir()
	if err := hf.Save(p.Model, dir); err != nil {
		t.Fatal(err)
	}
	_, err := Load(dir)
	if err == nil || !strings.Contains(err.Error(), "tokenizer") {
		t.Errorf("loading a folder without a tokenizer: %v", err)
	}
	if _, err := Load(filepath.Join(dir, "nope")); err == nil {
		t.Error("loading a missing folder succeeded")
	}
}
