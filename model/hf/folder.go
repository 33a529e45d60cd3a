package hf

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/credo-rl/credo/model"
)

// rotaryCache matches the rotary frequency buffers older transformers
// versions saved (F32 or I64 depending on version): they follow from
// rope_theta and head_dim, so Load skips them unread.
var rotaryCache = regexp.MustCompile(`^model\.(layers\.\d+\.self_attn\.)?rotary_emb\.inv_freq$`)

// Load reads a Hugging Face checkpoint folder: config.json and
// model.safetensors (or its sharded index). A missing or misshapen tensor is
// an error naming it, and so is a tensor the model does not use, unless it
// is derived from what the model has: a rotary frequency cache, an
// lm_head.weight equal to the tied embeddings, a zero score.bias. Each
// weight keeps its file's dtype for Save.
func Load(dir string) (*model.Model, error) {
	c, err := ReadConfig(dir)
	if err != nil {
		return nil, err
	}
	ck, err := openCheckpoint(dir)
	if err != nil {
		return nil, fmt.Errorf("load model: %w", err)
	}
	defer ck.Close()
	specs := c.Params()
	data := make([][]float32, len(specs))
	dtypes := make([]string, len(specs))
	used := map[string]bool{}
	for i, p := range specs {
		t, ok, err := ck.read(p.Name)
		switch {
		case err != nil:
			return nil, fmt.Errorf("load model %s: %w", dir, err)
		case !ok && p.Name == "lm_head.weight":
			return nil, fmt.Errorf("load model %s: tensor lm_head.weight is missing and tie_word_embeddings is false", dir)
		case !ok:
			return nil, fmt.Errorf("load model %s: tensor %s is missing", dir, p.Name)
		case !slices.Equal(t.Shape, p.Shape):
			return nil, fmt.Errorf("load model %s: tensor %s has shape %v, want %v", dir, p.Name, t.Shape, p.Shape)
		}
		data[i], dtypes[i], used[p.Name] = t.Data, t.DType, true
	}
	if err := checkUnused(c, ck, used, data[0]); err != nil {
		return nil, fmt.Errorf("load model %s: %w", dir, err)
	}
	c.TorchDtype, _ = model.TorchDType(dtypes[0]) // the embeddings' dtype names the folder's
	return model.FromWeights(c, data, dtypes)
}

// checkUnused rejects tensors in the folder the model does not use, other
// than derived ones. embed is the embedding table.
func checkUnused(c model.Config, ck *checkpoint, used map[string]bool, embed []float32) error {
	var unused []string
	for name := range ck.where {
		if used[name] || rotaryCache.MatchString(name) {
			continue
		}
		switch {
		case name == "lm_head.weight" && c.TieWordEmbeddings && c.NumLabels == 0:
			t, _, err := ck.read(name)
			if err != nil {
				return err
			}
			if !slices.Equal(t.Data, embed) {
				return fmt.Errorf("tensor lm_head.weight differs from model.embed_tokens.weight but tie_word_embeddings is true")
			}
		case name == "score.bias" && c.NumLabels > 0:
			t, _, err := ck.read(name)
			if err != nil {
				return err
			}
			if len(t.Data) != c.NumLabels || slices.ContainsFunc(t.Data, func(v float32) bool { return v != 0 }) {
				return fmt.Errorf("tensor score.bias is not zero: credo's scoring head has no bias")
			}
		default:
			unused = append(unused, name)
		}
	}
	if len(unused) == 0 {
		return nil
	}
	slices.Sort(unused)
	hint := ""
	for _, n := range unused {
		if strings.HasSuffix(n, ".bias") {
			hint = " (biases: check attention_bias and mlp_bias)"
		}
	}
	if len(unused) > 5 {
		unused = append(unused[:5], fmt.Sprintf("and %d more", len(unused)-5))
	}
	return fmt.Errorf("tensors in the folder that a %s with this config does not use: %s%s",
		c.Architecture(), strings.Join(unused, ", "), hint)
}

// Save writes m's config.json and model.safetensors into dir, creating
// it. Each weight is stored in the dtype it was loaded in (a BF16 folder
// saves as BF16, rounding the float32 weights to nearest even, as
// PyTorch's .to(torch.bfloat16) does); fresh weights in Config.TorchDtype.
// Each file is written atomically.
func Save(m *model.Model, dir string) error { return save(m, dir, "") }

// SaveAs is Save with every weight stored in dtype: "F32", "BF16" or "F16".
// Training keeps float32 weights, so a checkpoint that training will
// resume from exactly must be saved as F32.
func SaveAs(m *model.Model, dir, dtype string) error {
	if _, ok := model.TorchDType(dtype); !ok {
		return fmt.Errorf("save model: dtype %q is not supported (want F32, BF16 or F16)", dtype)
	}
	return save(m, dir, dtype)
}

func save(m *model.Model, dir, dtype string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("save model: %w", err)
	}
	ts := map[string]Tensor{}
	specs, dtypes := m.Specs(), m.DTypes()
	for i, d := range m.ParamData() {
		dt := dtypes[i]
		if dtype != "" {
			dt = dtype
		}
		ts[specs[i].Name] = Tensor{Shape: specs[i].Shape, Data: d, DType: dt}
	}
	if c := m.Config; c.NumLabels > 0 {
		// HF's *ForTokenClassification has a score bias; a zero one makes
		// transformers compute what credo does instead of drawing it at random.
		ts["score.bias"] = Tensor{Shape: []int{c.NumLabels}, Data: make([]float32, c.NumLabels), DType: ts["score.weight"].DType}
	}
	c := m.Config
	c.TorchDtype, _ = model.TorchDType(ts["model.embed_tokens.weight"].DType)
	if err := WriteSafetensors(filepath.Join(dir, "model.safetensors"), ts); err != nil {
		return fmt.Errorf("save model: %w", err)
	}
	return WriteConfig(dir, c)
}
