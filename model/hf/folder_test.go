package hf

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/credo-rl/credo/model"
	"github.com/credo-rl/credo/optim"
)

// biasedLlama is Llama with attention_bias and mlp_bias.
func biasedLlama() model.Config {
	c := model.Small(40)
	c.NumHiddenLayers, c.AttentionBias, c.MLPBias = 1, true, true
	return c
}

// saveFolder writes config c and tensors ts as a checkpoint folder.
func saveFolder(t *testing.T, c model.Config, ts map[string]Tensor) string {
	t.Helper()
	dir := t.TempDir()
	if err := WriteConfig(dir, c); err != nil {
		t.Fatal(err)
	}
	if err := WriteSafetensors(filepath.Join(dir, "model.safetensors"), ts); err != nil {
		t.Fatal(err)
	}
	return dir
}

// folderTensors saves m and reads its tensors back.
func folderTensors(t *testing.T, m *model.Model) map[string]Tensor {
	t.Helper()
	dir := t.TempDir()
	if err := Save(m, dir); err != nil {
		t.Fatal(err)
	}
	ts, err := ReadSafetensors(filepath.Join(dir, "model.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

func with(ts map[string]Tensor, name string, x Tensor) map[string]Tensor {
	out := map[string]Tensor{}
	for k, v := range ts {
		out[k] = v
	}
	if x.Shape == nil {
		delete(out, name)
	} else {
		out[name] = x
	}
	return out
}

// TestBiasesRoundTrip: Llama's o_proj and mlp biases load, are trained,
// and are saved with attention_bias and mlp_bias kept.
func TestBiasesRoundTrip(t *testing.T) {
	m, err := model.New(biasedLlama(), 3)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range m.Specs() {
		if strings.HasSuffix(p.Name, ".bias") {
			names = append(names, strings.TrimPrefix(p.Name, "model.layers.0."))
		}
	}
	want := []string{"self_attn.q_proj.bias", "self_attn.k_proj.bias", "self_attn.v_proj.bias", "self_attn.o_proj.bias",
		"mlp.gate_proj.bias", "mlp.up_proj.bias", "mlp.down_proj.bias"}
	if !slices.Equal(names, want) {
		t.Fatalf("biases %v, want %v", names, want)
	}
	tr, err := optim.NewUpdater(m, optim.DefaultAdamW(), optim.CrossEntropy{})
	if err != nil {
		t.Fatal(err)
	}
	seqs := [][]int32{{1, 2, 3, 4, 5, 6}, {7, 8, 9}}
	mask := [][]float32{{1, 1, 1, 1, 1}, {1, 1}}
	if _, err := tr.Step(context.Background(), seqs, optim.TokenInputs{Mask: mask}, 1e-2); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := Save(m, dir); err != nil {
		t.Fatal(err)
	}
	back, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !back.Config.AttentionBias || !back.Config.MLPBias {
		t.Error("attention_bias or mlp_bias lost in the round trip")
	}
	for i, d := range back.ParamData() {
		name := back.Specs()[i].Name
		if !slices.Equal(d, m.ParamData()[i]) {
			t.Errorf("%s changed in the round trip", name)
		}
		if strings.HasSuffix(name, ".bias") && !slices.ContainsFunc(d, func(v float32) bool { return v != 0 }) {
			t.Errorf("%s is still zero after a training step", name)
		}
	}
}

// TestLoadTensorRules: a tensor the model does not use is an error (the
// silently wrong outputs of a Llama with undeclared biases), in both
// directions, unless it is derived from what the model has.
func TestLoadTensorRules(t *testing.T) {
	biased, _ := model.New(biasedLlama(), 1)
	bts := folderTensors(t, biased)
	plain := biasedLlama()
	plain.AttentionBias, plain.MLPBias = false, false
	pm, _ := model.New(plain, 1)
	pts := folderTensors(t, pm)
	tied := model.Small(40)
	tied.NumHiddenLayers = 1
	tm, _ := model.New(tied, 1)
	tts := folderTensors(t, tm)
	prmCfg := tied
	prmCfg.NumLabels, prmCfg.TieWordEmbeddings = 1, false
	prm, _ := model.New(prmCfg, 1)
	sts := folderTensors(t, prm)
	if _, ok := sts["score.bias"]; !ok {
		t.Fatal("a scoring model is saved without score.bias, which transformers would draw at random")
	}
	other := tts["model.embed_tokens.weight"]
	other.Data = slices.Clone(other.Data)
	other.Data[3] += 1

	tests := []struct {
		name string
		c    model.Config
		ts   map[string]Tensor
		err  string // "" means it loads
	}{
		{"undeclared biases", plain, bts, "does not use: model.layers.0.mlp.down_proj.bias, model.layers.0.mlp.gate_proj.bias, model.layers.0.mlp.up_proj.bias, model.layers.0.self_attn.k_proj.bias, model.layers.0.self_attn.o_proj.bias, and 2 more (biases: check attention_bias and mlp_bias)"},
		{"declared biases missing", biasedLlama(), pts, "tensor model.layers.0.self_attn.q_proj.bias is missing"},
		{"o bias missing", biasedLlama(), with(bts, "model.layers.0.self_attn.o_proj.bias", Tensor{}), "tensor model.layers.0.self_attn.o_proj.bias is missing"},
		{"unknown tensor", plain, with(pts, "model.layers.0.mlp.extra.weight", Tensor{Shape: []int{2}, Data: []float32{1, 2}}), "does not use: model.layers.0.mlp.extra.weight"},
		{"tied head equal to the embeddings", tied, with(tts, "lm_head.weight", tts["model.embed_tokens.weight"]), ""},
		{"tied head that differs", tied, with(tts, "lm_head.weight", other), "lm_head.weight differs"},
		{"zero score bias", prmCfg, sts, ""},
		{"no score bias", prmCfg, with(sts, "score.bias", Tensor{}), ""},
		{"nonzero score bias", prmCfg, with(sts, "score.bias", Tensor{Shape: []int{1}, Data: []float32{0.5}}), "score.bias is not zero"},
		{"rotary cache (F32)", plain, with(pts, "model.layers.0.self_attn.rotary_emb.inv_freq", Tensor{Shape: []int{16}, Data: make([]float32, 16)}), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(saveFolder(t, tt.c, tt.ts))
			switch {
			case tt.err == "" && err != nil:
				t.Errorf("unexpected error %v", err)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Errorf("error %v, want one containing %q", err, tt.err)
			}
		})
	}

	// A rotary cache stored as I64 is skipped unread, not rejected for
	// its dtype (credo decodes only F32, BF16 and F16).
	dir := saveFolder(t, plain, pts)
	addRawTensor(t, filepath.Join(dir, "model.safetensors"), "model.layers.0.self_attn.rotary_emb.inv_freq", "I64", []int{16}, make([]byte, 8*16))
	if _, err := Load(dir); err != nil {
		t.Errorf("I64 rotary cache: %v", err)
	}
	addRawTensor(t, filepath.Join(dir, "model.safetensors"), "model.layers.0.self_attn.position_ids", "I64", []int{4}, make([]byte, 8*4))
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "position_ids") {
		t.Errorf("an unused I64 tensor: %v", err)
	}
}

// addRawTensor rewrites a safetensors file with one more tensor of any
// dtype, its bytes given.
func addRawTensor(t *testing.T, path, name, dtype string, shape []int, data []byte) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n := binary.LittleEndian.Uint64(raw)
	var hdr map[string]json.RawMessage
	if err := json.Unmarshal(raw[8:8+n], &hdr); err != nil {
		t.Fatal(err)
	}
	body := raw[8+n:]
	e, _ := json.Marshal(stEntry{DType: dtype, Shape: shape, Offsets: [2]int64{int64(len(body)), int64(len(body) + len(data))}})
	hdr[name] = e
	h, _ := json.Marshal(hdr)
	out := binary.LittleEndian.AppendUint64(nil, uint64(len(h)))
	out = append(append(append(out, h...), body...), data...)
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestShardedLoad reads a folder split into two shards with an index, and
// refuses a tensor stored in both.
func TestShardedLoad(t *testing.T) {
	m, _ := model.New(model.Tiny(40), 2)
	ts := folderTensors(t, m)
	dir := t.TempDir()
	if err := WriteConfig(dir, m.Config); err != nil {
		t.Fatal(err)
	}
	shards := []map[string]Tensor{{}, {}}
	index := map[string]any{"weight_map": map[string]string{}}
	for name, x := range ts {
		i := 0
		if strings.Contains(name, "layers.1") || name == "lm_head.weight" {
			i = 1
		}
		shards[i][name] = x
		index["weight_map"].(map[string]string)[name] = []string{"model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"}[i]
	}
	for i, s := range shards {
		if err := WriteSafetensors(filepath.Join(dir, []string{"model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"}[i]), s); err != nil {
			t.Fatal(err)
		}
	}
	data, _ := json.Marshal(index)
	os.WriteFile(filepath.Join(dir, "model.safetensors.index.json"), data, 0o644)
	back, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range back.ParamData() {
		if !slices.Equal(d, m.ParamData()[i]) {
			t.Errorf("%s differs after a sharded load", back.Specs()[i].Name)
		}
	}
	shards[1]["model.norm.weight"] = ts["model.norm.weight"]
	WriteSafetensors(filepath.Join(dir, "model-00002-of-00002.safetensors"), shards[1])
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "in two shards") {
		t.Errorf("a tensor in two shards: %v", err)
	}
}

// TestSaveKeepsDType: a BF16 (or F16) folder saves as BF16 (F16),
// byte for byte when the weights did not change; after training (float32
// master weights) Save rounds each weight once, to nearest even, and
// SaveAs F32 keeps them exactly.
func TestSaveKeepsDType(t *testing.T) {
	for _, dt := range []string{"BF16", "F16"} {
		t.Run(dt, func(t *testing.T) {
			m, _ := model.New(model.Tiny(40), 5)
			first := t.TempDir()
			if err := SaveAs(m, first, dt); err != nil {
				t.Fatal(err)
			}
			loaded, err := Load(first)
			if err != nil {
				t.Fatal(err)
			}
			torch, _ := model.TorchDType(dt)
			if loaded.Config.TorchDtype != torch {
				t.Errorf("torch_dtype %q, want %q", loaded.Config.TorchDtype, torch)
			}
			second := t.TempDir()
			if err := Save(loaded, second); err != nil {
				t.Fatal(err)
			}
			a, _ := os.ReadFile(filepath.Join(first, "model.safetensors"))
			b, _ := os.ReadFile(filepath.Join(second, "model.safetensors"))
			if !slices.Equal(a, b) {
				t.Errorf("re-saving a %s folder changed model.safetensors", dt)
			}
			f32 := t.TempDir()
			Save(m, f32)
			c, _ := os.ReadFile(filepath.Join(f32, "model.safetensors"))
			t.Logf("%s file %d bytes, F32 %d", dt, len(b), len(c))
			if len(b) > len(c)*6/10 {
				t.Errorf("%s file of %d bytes is not about half the F32 one (%d)", dt, len(b), len(c))
			}
			cfg, _ := ReadConfig(second)
			if cfg.TorchDtype != torch {
				t.Errorf("saved torch_dtype %q", cfg.TorchDtype)
			}

			// Train, then save: the file holds the trained weights rounded once.
			tr, _ := optim.NewUpdater(loaded, optim.DefaultAdamW(), optim.CrossEntropy{})
			if _, err := tr.Step(context.Background(), [][]int32{{1, 2, 3, 4}}, optim.TokenInputs{Mask: [][]float32{{1, 1, 1}}}, 1e-3); err != nil {
				t.Fatal(err)
			}
			trained := loaded.ParamData()
			third := t.TempDir()
			if err := Save(loaded, third); err != nil {
				t.Fatal(err)
			}
			back, err := Load(third)
			if err != nil {
				t.Fatal(err)
			}
			round := map[string]func(float32) float32{
				"BF16": func(v float32) float32 { return math.Float32frombits(uint32(floatToBF16(v)) << 16) },
				"F16":  func(v float32) float32 { return halfToFloat(floatToHalf(v)) },
			}[dt]
			changed := 0
			for i, d := range back.ParamData() {
				for j, v := range d {
					if want := round(trained[i][j]); v != want {
						t.Fatalf("%s[%d] = %g, want %g (rounded from %g)", back.Specs()[i].Name, j, v, want, trained[i][j])
					}
				}
				if !slices.Equal(d, loaded.ParamData()[i]) {
					changed++
				}
			}
			t.Logf("%d of %d tensors differ between the float32 master weights and the %s file", changed, len(trained), dt)
			exact := t.TempDir()
			if err := SaveAs(loaded, exact, "F32"); err != nil {
				t.Fatal(err)
			}
			ex, _ := Load(exact)
			for i, d := range ex.ParamData() {
				if !slices.Equal(d, trained[i]) {
					t.Errorf("SaveAs F32 changed %s", ex.Specs()[i].Name)
				}
			}
		})
	}
}

// TestMixedDTypeFolder: each weight keeps its own dtype (F32 norms in a
// BF16 folder stay F32); torch_dtype names the embeddings'.
func TestMixedDTypeFolder(t *testing.T) {
	m, _ := model.New(model.Tiny(40), 5)
	ts := folderTensors(t, m)
	for name, x := range ts {
		if !strings.HasSuffix(name, "norm.weight") {
			x.DType = "BF16"
			ts[name] = x
		}
	}
	dir := saveFolder(t, m.Config, ts)
	loaded, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if loaded.Config.TorchDtype != "bfloat16" {
		t.Errorf("torch_dtype %q", loaded.Config.TorchDtype)
	}
	out := folderTensors(t, loaded)
	for name, x := range out {
		want := "BF16"
		if strings.HasSuffix(name, "norm.weight") {
			want = "F32"
		}
		if x.DType != want {
			t.Errorf("%s saved as %s, want %s", name, x.DType, want)
		}
	}
	if err := SaveAs(loaded, t.TempDir(), "F64"); err == nil {
		t.Error("SaveAs F64 accepted")
	}
}
