package model

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// Load reads a Hugging Face checkpoint folder: config.json and
// model.safetensors (or its sharded index). A missing or misshapen tensor is
// an error naming it; tensors the model does not use (rotary caches, for
// example) are ignored.
func Load(dir string) (*Model, error) {
	c, err := LoadConfig(dir)
	if err != nil {
		return nil, err
	}
	ts, err := readCheckpointTensors(dir)
	if err != nil {
		return nil, fmt.Errorf("load model: %w", err)
	}
	specs := c.Params()
	data := make([][]float32, len(specs))
	for i, p := range specs {
		t, ok := ts[p.Name]
		if !ok && p.Name == "lm_head.weight" {
			return nil, fmt.Errorf("load model %s: tensor lm_head.weight is missing and tie_word_embeddings is false", dir)
		}
		if !ok {
			return nil, fmt.Errorf("load model %s: tensor %s is missing", dir, p.Name)
		}
		if !slices.Equal(t.Shape, p.Shape) {
			return nil, fmt.Errorf("load model %s: tensor %s has shape %v, want %v", dir, p.Name, t.Shape, p.Shape)
		}
		data[i] = t.Data
	}
	return fromData(c, data)
}

// Save writes config.json and model.safetensors into dir, creating it.
// Each file is written atomically.
func (m *Model) Save(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("save model: %w", err)
	}
	ts := map[string]Tensor{}
	for i, d := range m.ParamData() {
		ts[m.specs[i].Name] = Tensor{Shape: m.specs[i].Shape, Data: d}
	}
	if err := WriteSafetensors(filepath.Join(dir, "model.safetensors"), ts); err != nil {
		return fmt.Errorf("save model: %w", err)
	}
	return m.Config.Save(dir)
}
