package hf

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/credo-rl/credo/internal/boundedread"
)

// checkpoint is a folder's safetensors files with their headers read:
// model.safetensors, or the shards model.safetensors.index.json lists.
type checkpoint struct {
	files []*os.File
	where map[string]*stFile // tensor name → its file
}

func openCheckpoint(dir string) (*checkpoint, error) {
	var shards []string
	single := filepath.Join(dir, "model.safetensors")
	if _, err := os.Stat(single); err == nil {
		shards = []string{"model.safetensors"}
	} else {
		indexPath := filepath.Join(dir, "model.safetensors.index.json")
		data, err := boundedread.ReadFile(indexPath, boundedread.Record)
		if err != nil {
			return nil, fmt.Errorf("no model.safetensors or model.safetensors.index.json in %s", dir)
		}
		var index struct {
			WeightMap map[string]string `json:"weight_map"`
		}
		if err := json.Unmarshal(data, &index); err != nil {
			return nil, fmt.Errorf("read %s: %w", indexPath, err)
		}
		seen := map[string]bool{}
		for _, f := range index.WeightMap {
			if filepath.Base(f) != f {
				return nil, fmt.Errorf("read %s: shard name %q is not a plain file name", indexPath, f)
			}
			if !seen[f] {
				seen[f] = true
				shards = append(shards, f)
			}
		}
		sort.Strings(shards)
	}
	c := &checkpoint{where: map[string]*stFile{}}
	for _, name := range shards {
		path := filepath.Join(dir, name)
		fh, size, err := boundedread.Open(path)
		if err != nil {
			c.Close()
			return nil, fmt.Errorf("read safetensors: %w", err)
		}
		c.files = append(c.files, fh)
		f, err := parseSafetensors(fh, size)
		if err != nil {
			c.Close()
			return nil, fmt.Errorf("read safetensors %s: %w", path, err)
		}
		for n := range f.entries {
			if _, dup := c.where[n]; dup {
				c.Close()
				return nil, fmt.Errorf("read safetensors %s: tensor %s is in two shards", path, n)
			}
			c.where[n] = f
		}
	}
	return c, nil
}

// read decodes one tensor; ok is false when the folder has none of that name.
func (c *checkpoint) read(name string) (t Tensor, ok bool, err error) {
	f, ok := c.where[name]
	if !ok {
		return Tensor{}, false, nil
	}
	t, err = f.read(name)
	return t, true, err
}

func (c *checkpoint) Close() {
	for _, f := range c.files {
		f.Close()
	}
}
