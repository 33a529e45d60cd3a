package policy

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/credo-rl/credo/internal/atomicfile"
	"github.com/credo-rl/credo/internal/lock"
	"github.com/credo-rl/credo/model"
	"github.com/credo-rl/credo/model/hf"
	"github.com/credo-rl/credo/sample"
	"github.com/credo-rl/credo/tokenizer"
)

// Policy is a language model and the tokenizer it reads and writes with.
type Policy struct {
	Model *model.Model
	Tok   tokenizer.Tokenizer
}

// Load reads a checkpoint folder: config.json, model.safetensors and a
// tokenizer. A folder without a tokenizer is an error that says so.
func Load(dir string) (*Policy, error) {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("load policy: %s is not a checkpoint folder", dir)
	}
	tok, err := tokenizer.Load(dir)
	if err != nil {
		return nil, fmt.Errorf("load policy %s: %w", dir, err)
	}
	m, err := hf.Load(dir)
	if err != nil {
		return nil, fmt.Errorf("load policy: %w", err)
	}
	if tok.VocabSize() > m.Config.VocabSize {
		return nil, fmt.Errorf("load policy %s: the tokenizer has %d tokens but the model only %d", dir, tok.VocabSize(), m.Config.VocabSize)
	}
	return &Policy{Model: m, Tok: tok}, nil
}

// Save writes the model and the tokenizer into dir. It writes into a
// temporary sibling folder and renames it, so dir is either the old
// checkpoint or the new one.
func (p *Policy) Save(dir string) error {
	tmp, lk, err := lock.MkdirTemp(dir) // locked: a killed save's folder is known as abandoned
	if err != nil {
		return fmt.Errorf("save policy: %w", err)
	}
	defer lk.Release()
	if err := errors.Join(hf.Save(p.Model, tmp), p.Tok.Save(tmp)); err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("save policy: %w", err)
	}
	if err := ReplaceDir(tmp, dir); err != nil {
		return err
	}
	lk.Moved(dir)
	return nil
}

// ReplaceDir moves the finished folder tmp to dir, replacing whatever was
// there: the old folder is renamed aside first and removed last, so a crash
// leaves one of the two whole. dir gets the usual folder mode (0755 less
// the umask), whatever mode tmp was made with.
func ReplaceDir(tmp, dir string) error {
	if err := os.Chmod(tmp, atomicfile.DirMode&^atomicfile.Umask()); err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("replace %s: %w", dir, err)
	}
	old := ""
	if _, err := os.Stat(dir); err == nil {
		old = dir + ".old"
		os.RemoveAll(old)
		if err := os.Rename(dir, old); err != nil {
			os.RemoveAll(tmp)
			return fmt.Errorf("replace %s: %w", dir, err)
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("replace %s: %w", dir, err)
	}
	if old != "" {
		os.RemoveAll(old)
	}
	return nil
}

// Generate renders each prompt with the tokenizer's chat template and
// samples group responses for each (response r answers prompt r / group).
func (p *Policy) Generate(ctx context.Context, prompts []string, group int, c sample.Config) ([]sample.Response, error) {
	ids := make([][]int32, len(prompts))
	for i, s := range prompts {
		ids[i] = p.Tok.EncodePrompt(s)
	}
	return sample.Generate(ctx, p.Model, p.Tok, ids, group, c)
}
