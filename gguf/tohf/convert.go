package tohf

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/credo-rl/credo/gguf"
	"github.com/credo-rl/credo/internal/atomicfile"
	"github.com/credo-rl/credo/model"
	mhf "github.com/credo-rl/credo/model/hf"
	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/tokenizer"
)

// Options say how Convert writes the folder.
type Options struct {
	// DType stores the weights as "F32" (default) or "BF16".
	DType string
	// Replace lets Convert overwrite an existing folder.
	Replace bool
}

// Summary says what Convert wrote.
type Summary struct {
	Config  model.Config
	Params  int            // number of weights
	Types   map[string]int // GGUF tensors by ggml type
	Name    string         // general.name, if any
	Context int            // the context length
}

// Convert writes the Hugging Face folder of the llama GGUF f into dir. The
// folder is built in a temporary sibling, loaded back by credo (model and
// tokenizer) and only then renamed into place, so dir is never half
// written; an existing dir is an error unless o.Replace.
func Convert(ctx context.Context, f *gguf.File, dir string, o Options) (Summary, error) {
	var s Summary
	if o.DType == "" {
		o.DType = "F32"
	}
	if o.DType != "F32" && o.DType != "BF16" {
		return s, fmt.Errorf("convert: dtype %q is not supported (want F32 or BF16)", o.DType)
	}
	if _, err := os.Stat(dir); err == nil && !o.Replace {
		return s, fmt.Errorf("convert: %s already exists (replace it explicitly)", dir)
	}
	c, err := llamaConfig(f)
	if err == nil {
		c, err = withTensors(f, c)
	}
	if err != nil {
		return s, fmt.Errorf("convert: %w", err)
	}
	c.TorchDtype = map[string]string{"F32": "float32", "BF16": "bfloat16"}[o.DType]
	v, err := readVocab(f)
	if err != nil {
		return s, fmt.Errorf("convert: %w", err)
	}
	if len(v.tokens) > c.VocabSize {
		return s, fmt.Errorf("convert: %d tokens but the embedding table has %d rows", len(v.tokens), c.VocabSize)
	}
	c.BOSTokenID, c.PadTokenID = optionalID(v.bos), optionalID(v.pad)
	c.EOSTokenID = v.eos
	parent := filepath.Dir(filepath.Clean(dir))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return s, fmt.Errorf("convert: %w", err)
	}
	tmp, err := atomicfile.MkdirTemp(parent, "."+filepath.Base(dir)+".tmp*")
	if err != nil {
		return s, fmt.Errorf("convert: %w", err)
	}
	if err := write(ctx, f, c, v, tmp, o.DType); err != nil {
		os.RemoveAll(tmp)
		return s, fmt.Errorf("convert: %w", err)
	}
	if _, err := policy.Load(tmp); err != nil {
		os.RemoveAll(tmp)
		return s, fmt.Errorf("convert: the folder written does not load back: %w", err)
	}
	if err := policy.ReplaceDir(tmp, dir); err != nil {
		return s, fmt.Errorf("convert: %w", err)
	}
	s = Summary{Config: c, Params: c.NumParams(), Types: map[string]int{}, Context: c.MaxPositionEmbeddings}
	s.Name, _ = f.String("general.name")
	for _, t := range f.Tensors {
		s.Types[t.Type.String()]++
	}
	return s, nil
}

func optionalID(id int) *int {
	if id < 0 {
		return nil
	}
	return &id
}

// write puts the four files into dir.
func write(ctx context.Context, f *gguf.File, c model.Config, v *vocab, dir, dtype string) error {
	ts, err := weights(ctx, f, c, dtype)
	if err != nil {
		return err
	}
	tj, err := v.tokenizerJSON()
	if err != nil {
		return err
	}
	template := ""
	if f.Has("tokenizer.chat_template") {
		if template, err = f.String("tokenizer.chat_template"); err != nil {
			return err
		}
	}
	tc, err := v.tokenizerConfig(template, c.MaxPositionEmbeddings)
	if err != nil {
		return err
	}
	return errors.Join(
		mhf.WriteConfig(dir, c),
		mhf.WriteSafetensors(filepath.Join(dir, "model.safetensors"), ts),
		atomicfile.Write(filepath.Join(dir, tokenizer.HFFile), tj),
		atomicfile.Write(filepath.Join(dir, tokenizer.HFConfigFile), tc),
	)
}
