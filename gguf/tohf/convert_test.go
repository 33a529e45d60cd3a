package tohf_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	mhf "github.com/credo-rl/credo/model/hf"

	"github.com/credo-rl/credo/gguf"
	"github.com/credo-rl/credo/gguf/gguftest"
	"github.com/credo-rl/credo/gguf/tohf"
	"github.com/credo-rl/credo/tokenizer"
)

func convert(t *testing.T, data []byte, o tohf.Options) (string, tohf.Summary) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "out")
	s, err := tohf.Convert(context.Background(), gguftest.Parse(t, data), dir, o)
	if err != nil {
		t.Fatal(err)
	}
	return dir, s
}

// TestConvertWeights: every weight comes out in Hugging Face's layout (q
// and k rows unpermuted) with the values its quantized tensor decodes to,
// tied and untied, F32 and BF16.
func TestConvertWeights(t *testing.T) {
	untied := gguftest.SmallLlama
	untied.Tied, untied.Matrix, untied.Embed, untied.Heads, untied.KVHeads = false, gguf.F32, gguf.F16, 2, 2
	for _, tc := range []struct {
		name  string
		llama gguftest.Llama
		dtype string
	}{{"SmolLM2 layout", gguftest.SmallLlama, "F32"}, {"untied F32 MHA", untied, "F32"}, {"bf16", gguftest.SmallLlama, "BF16"}} {
		t.Run(tc.name, func(t *testing.T) {
			tiny := gguftest.TinyLlama(tc.llama)
			dir, sum := convert(t, tiny.File, tohf.Options{DType: tc.dtype})
			got, err := mhf.ReadSafetensors(filepath.Join(dir, "model.safetensors"))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tiny.Want) || sum.Params != sum.Config.NumParams() {
				t.Errorf("%d tensors written, want %d", len(got), len(tiny.Want))
			}
			for name, want := range tiny.Want {
				g, ok := got[name]
				if !ok {
					t.Errorf("%s missing", name)
					continue
				}
				if tc.dtype == "BF16" {
					want = roundBF16(want)
				}
				if g.DType != tc.dtype || !slices.Equal(g.Data, want) {
					t.Errorf("%s: dtype %s, values differ from the HF layout (first %v, want %v)", name, g.DType, g.Data[:4], want[:4])
				}
			}
			if _, err := mhf.Load(dir); err != nil {
				t.Errorf("hf.Load: %v", err)
			}
		})
	}
}

func roundBF16(x []float32) []float32 {
	out := make([]float32, len(x))
	for i, v := range x {
		d, _ := gguf.Dequantize(gguf.BF16, gguftest.Quantize(gguf.BF16, []float32{v}), 1)
		out[i] = d[0]
	}
	return out
}

func TestConvertConfig(t *testing.T) {
	dir, _ := convert(t, gguftest.TinyLlama(gguftest.SmallLlama).File, tohf.Options{})
	c, err := mhf.ReadConfig(dir)
	if err != nil {
		t.Fatal(err)
	}
	l := gguftest.SmallLlama
	if c.ModelType != "llama" || c.NumHiddenLayers != l.Layers || c.HiddenSize != l.Hidden || c.NumAttentionHeads != l.Heads ||
		c.NumKeyValueHeads != l.KVHeads || c.IntermediateSize != l.FFN || c.VocabSize != 256+len(gguftest.Specials)+len(gguftest.Merges) ||
		!c.TieWordEmbeddings || c.RopeTheta != 100000 || c.RMSNormEps != 1e-5 || c.MaxPositionEmbeddings != 256 ||
		*c.BOSTokenID != 1 || c.EOSTokenID != 2.0 || *c.PadTokenID != 2 || c.HeadDim != 0 || c.TorchDtype != "float32" {
		t.Errorf("config = %+v", c)
	}
	raw, _ := os.ReadFile(filepath.Join(dir, "config.json"))
	if !strings.Contains(string(raw), `"rms_norm_eps": 0.00001,`) {
		t.Errorf("config.json should say rms_norm_eps 0.00001 (the float32's shortest decimal):\n%s", raw)
	}
}

// TestConvertTokenizer: the tokenizer built from tokenizer.ggml.* splits
// digits one by one (smollm's pre-tokenizer), applies the merges, keeps the
// control tokens whole and carries the chat template.
func TestConvertTokenizer(t *testing.T) {
	dir, _ := convert(t, gguftest.TinyLlama(gguftest.SmallLlama).File, tohf.Options{})
	tok, err := tokenizer.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	ids, offs := tok.Encode("in the 12<|im_end|>")
	var pieces []string
	for i := range ids {
		pieces = append(pieces, "in the 12<|im_end|>"[offs[i][0]:offs[i][1]])
	}
	if want := []string{"in", " the", " ", "1", "2", "<|im_end|>"}; !slices.Equal(pieces, want) {
		t.Errorf("pieces = %q, want %q", pieces, want)
	}
	if tok.EOS() != 2 || tok.PAD() != 2 {
		t.Errorf("EOS %d, PAD %d; want 2, 2", tok.EOS(), tok.PAD())
	}
	cfg, _ := os.ReadFile(filepath.Join(dir, tokenizer.HFConfigFile))
	for _, want := range []string{`"chat_template": "{% for message`, `"eos_token": "<|im_end|>"`, `"bos_token": "<|im_start|>"`, `"add_bos_token": false`} {
		if !strings.Contains(string(cfg), want) {
			t.Errorf("tokenizer_config.json lacks %s:\n%s", want, cfg)
		}
	}
}

// TestConvertErrors: input the converter cannot represent is an error
// naming the reason, and nothing is left behind.
func TestConvertErrors(t *testing.T) {
	base := gguftest.TinyLlama(gguftest.SmallLlama)
	f := gguftest.Parse(t, base.File)
	w := gguftest.SmallLlama
	w.Hidden, w.HeadDim = 256, 64 // rows of 256: one k-quant block
	wide := gguftest.TinyLlama(w)
	// rebuilt is the tiny model's file with metadata key k set to v
	// (v nil: removed) and extra tensors.
	rebuilt := func(k string, v any, extra ...string) []byte {
		var w gguftest.Writer
		for _, key := range f.Keys {
			val := f.Metadata[key].Any()
			if key == k {
				if v == nil {
					continue
				}
				val = v
			}
			w.Add(key, plain(f, key, val))
		}
		if _, ok := f.Metadata[k]; !ok && v != nil {
			w.Add(k, v)
		}
		for _, ti := range f.Tensors {
			data := make([]byte, mustSize(ti))
			copy(data, base.File[f.DataOffset+ti.Offset:])
			w.AddTensor(ti.Name, ti.Type, ti.Dims, data)
		}
		for _, name := range extra {
			w.AddTensor(name, gguf.Q4_K, []int64{256}, make([]byte, 144))
		}
		return w.Bytes()
	}
	for _, tc := range []struct {
		name, want string
		data       []byte
	}{
		{"architecture", `architecture "qwen2" is not supported`, rebuilt("general.architecture", "qwen2")},
		{"no block count", "llama.block_count is missing", rebuilt("llama.block_count", nil)},
		{"block count a string", "want an integer", rebuilt("llama.block_count", "two")},
		{"MoE", "llama.expert_count", rebuilt("llama.expert_count", uint32(8))},
		{"partial rotary", "rotates whole heads", rebuilt("llama.rope.dimension_count", uint32(8))},
		{"SentencePiece", `tokenizer.ggml.model "llama" is not supported`, rebuilt("tokenizer.ggml.model", "llama")},
		{"unknown pre-tokenizer", `tokenizer.ggml.pre "deepseek-llm" is not supported (known:`, rebuilt("tokenizer.ggml.pre", "deepseek-llm")},
		{"bad merge", "two tokens separated by one space", rebuilt("tokenizer.ggml.merges", []string{"a"})},
		{"eos out of range", "is not a token id", rebuilt("tokenizer.ggml.eos_token_id", uint32(1<<20))},
		{"extra tensor", "does not use: rope_freqs.weight", rebuilt("", nil, "rope_freqs.weight")},
		{"k-quant", "Q6_K cannot be dequantized", rebuiltWithType(t, wide.File, "blk.0.ffn_up.weight", gguf.Q6_K)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parent := t.TempDir()
			_, err := tohf.Convert(context.Background(), gguftest.Parse(t, tc.data), filepath.Join(parent, "out"), tohf.Options{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one containing %q", err, tc.want)
			}
			if left, _ := os.ReadDir(parent); len(left) != 0 {
				t.Errorf("a failed conversion left %v behind", left)
			}
		})
	}
	dir, _ := convert(t, base.File, tohf.Options{})
	if _, err := tohf.Convert(context.Background(), f, dir, tohf.Options{}); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("converting onto an existing folder: %v", err)
	}
	if _, err := tohf.Convert(context.Background(), f, dir, tohf.Options{Replace: true, DType: "F16"}); err == nil || !strings.Contains(err.Error(), "want F32 or BF16") {
		t.Errorf("dtype F16: %v", err)
	}
	if _, err := tohf.Convert(context.Background(), f, dir, tohf.Options{Replace: true}); err != nil {
		t.Errorf("Replace: %v", err)
	}
}

// plain turns a parsed value back into what Writer.Add takes.
func plain(f *gguf.File, key string, v any) any {
	if vs, ok := v.([]gguf.Value); ok {
		if s, err := f.Strings(key); err == nil && len(vs) > 0 {
			return s
		}
		n, _ := f.Ints(key)
		out := make([]int32, len(n))
		for i, x := range n {
			out[i] = int32(x)
		}
		return out
	}
	return v
}

func mustSize(ti gguf.TensorInfo) int64 {
	n, _ := ti.Size()
	return n
}

// rebuiltWithType replaces one tensor of file by zeros of type t.
func rebuiltWithType(t *testing.T, file []byte, name string, typ gguf.Type) []byte {
	f := gguftest.Parse(t, file)
	var w gguftest.Writer
	for _, key := range f.Keys {
		w.Add(key, plain(f, key, f.Metadata[key].Any()))
	}
	for _, ti := range f.Tensors {
		if ti.Name == name {
			ti.Type = typ
			n, _ := ti.Size()
			w.AddTensor(ti.Name, typ, ti.Dims, make([]byte, n))
			continue
		}
		w.AddTensor(ti.Name, ti.Type, ti.Dims, file[f.DataOffset+ti.Offset:f.DataOffset+ti.Offset+mustSize(ti)])
	}
	return w.Bytes()
}
