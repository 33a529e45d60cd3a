package hf

import (
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/credo-rl/credo/model"
)

func TestSaveLoadRoundTrip(t *testing.T) {
	for _, c := range []model.Config{model.Tiny(40), func() model.Config { c := model.Small(40); c.NumHiddenLayers = 1; return c }()} {
		m, err := model.New(c, 7)
		if err != nil {
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
		if !equalConfig(back.Config, m.Config) {
			t.Errorf("config changed: %+v vs %+v", back.Config, m.Config)
		}
		want, got := m.ParamData(), back.ParamData()
		for i := range want {
			if !slices.Equal(want[i], got[i]) {
				t.Errorf("tensor %s changed in the round trip", m.Specs()[i].Name)
			}
		}
		// The same seed gives the same weights; another seed does not.
		again, _ := model.New(c, 7)
		other, _ := model.New(c, 8)
		if !slices.Equal(again.ParamData()[0], want[0]) || slices.Equal(other.ParamData()[0], want[0]) {
			t.Error("initialisation is not a function of the seed")
		}
	}
}

func equalConfig(a, b model.Config) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

func TestConfigErrors(t *testing.T) {
	good := `{"model_type":"qwen2","vocab_size":40,"hidden_size":32,"intermediate_size":64,
	"num_hidden_layers":2,"num_attention_heads":4,"num_key_value_heads":2,
	"max_position_embeddings":64,"rope_theta":10000,"rms_norm_eps":1e-6,
	"tie_word_embeddings":false,"hidden_act":"silu"`
	tests := []struct {
		name, json, want string
	}{
		{"ok", good + `}`, ""},
		{"bookkeeping fields are ignored", good + `,"transformers_version":"4.40","use_cache":true,"sliding_window":4096}`, ""},
		{"unknown field", good + `,"quantization_config":{}}`, `unknown field "quantization_config"`},
		{"sliding window on", good + `,"use_sliding_window":true}`, "use_sliding_window = true is not supported"},
		{"rope scaling", good + `,"rope_scaling":{"type":"yarn"}}`, "rope_scaling"},
		{"heads not a multiple", strings.Replace(good, `"num_key_value_heads":2`, `"num_key_value_heads":3`, 1) + `}`, "multiple of num_key_value_heads"},
		{"hidden not divisible", strings.Replace(good, `"hidden_size":32`, `"hidden_size":30`, 1) + `}`, "not a multiple of num_attention_heads"},
		{"bad activation", strings.Replace(good, `"silu"`, `"gelu"`, 1) + `}`, "hidden_act"},
		{"bad model type", strings.Replace(good, `"qwen2"`, `"gpt2"`, 1) + `}`, "model_type"},
		{"zero vocab", strings.Replace(good, `"vocab_size":40`, `"vocab_size":0`, 1) + `}`, "vocab_size must be positive"},
		{"head and tied embeddings", good + `,"num_labels":1,"tie_word_embeddings":true}`, "contradicts tie_word_embeddings"},
		{"not json", `{"model_type":`, "parse model config"},
		{"wrong type", strings.Replace(good, `"vocab_size":40`, `"vocab_size":"many"`, 1) + `}`, "parse model config"},
	}
	for _, tt := range tests {
		_, err := ParseConfig([]byte(tt.json))
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: unexpected error %v", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.want)
		}
	}
}

// A tied config writes and reads no lm_head; an untied one without it fails
// naming the tensor.
func TestLoadErrors(t *testing.T) {
	m, _ := model.New(model.Tiny(40), 1)
	dir := t.TempDir()
	if err := Save(m, dir); err != nil {
		t.Fatal(err)
	}
	st := filepath.Join(dir, "model.safetensors")
	ts, err := ReadSafetensors(st)
	if err != nil {
		t.Fatal(err)
	}

	write := func(t *testing.T, ts map[string]Tensor) string {
		d := t.TempDir()
		if err := WriteConfig(d, m.Config); err != nil {
			t.Fatal(err)
		}
		if err := WriteSafetensors(filepath.Join(d, "model.safetensors"), ts); err != nil {
			t.Fatal(err)
		}
		return d
	}
	missing := map[string]Tensor{}
	for k, v := range ts {
		if k != "model.layers.1.mlp.up_proj.weight" {
			missing[k] = v
		}
	}
	misshapen := map[string]Tensor{}
	for k, v := range ts {
		misshapen[k] = v
	}
	misshapen["model.norm.weight"] = Tensor{Shape: []int{2, 16}, Data: ts["model.norm.weight"].Data}

	raw, _ := os.ReadFile(st)
	cases := []struct {
		name string
		dir  func(t *testing.T) string
		want string
	}{
		{"missing tensor", func(t *testing.T) string { return write(t, missing) }, "tensor model.layers.1.mlp.up_proj.weight is missing"},
		{"misshapen tensor", func(t *testing.T) string { return write(t, misshapen) }, "tensor model.norm.weight has shape [2 16], want [32]"},
		{"no weights", func(t *testing.T) string { d := t.TempDir(); WriteConfig(d, m.Config); return d }, "no model.safetensors"},
		{"no config", func(t *testing.T) string { return t.TempDir() }, "config.json"},
		{"corrupt header length", func(t *testing.T) string {
			d := write(t, ts)
			bad := append([]byte(nil), raw...)
			binary.LittleEndian.PutUint64(bad, 1<<40)
			os.WriteFile(filepath.Join(d, "model.safetensors"), bad, 0o644)
			return d
		}, "header length"},
		{"header not json", func(t *testing.T) string {
			d := write(t, ts)
			bad := append([]byte(nil), raw...)
			copy(bad[8:], "not json")
			os.WriteFile(filepath.Join(d, "model.safetensors"), bad, 0o644)
			return d
		}, "corrupt header"},
		{"truncated data", func(t *testing.T) string {
			d := write(t, ts)
			os.WriteFile(filepath.Join(d, "model.safetensors"), raw[:len(raw)-100], 0o644)
			return d
		}, "outside the"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(tc.dir(t))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Load error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestHalfPrecisionDecode(t *testing.T) {
	for _, tc := range []struct {
		bits uint16
		want float32
	}{{0x3c00, 1}, {0xc000, -2}, {0x7bff, 65504}, {0x0001, 5.9604645e-08}, {0x0000, 0}, {0x3555, 0.33325195}} {
		if got := halfToFloat(tc.bits); got != tc.want {
			t.Errorf("halfToFloat(%#x) = %g, want %g", tc.bits, got, tc.want)
		}
	}
}

func FuzzReadSafetensors(f *testing.F) {
	m, _ := model.New(model.Tiny(8), 1)
	dir := f.TempDir()
	if err := Save(m, dir); err != nil {
		f.Fatal(err)
	}
	raw, _ := os.ReadFile(filepath.Join(dir, "model.safetensors"))
	f.Add(raw)
	f.Add([]byte{})
	f.Add([]byte("\x10\x00\x00\x00\x00\x00\x00\x00{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ts, err := readSafetensors(bytesReaderAt(data), int64(len(data)))
		if err != nil {
			return
		}
		for name, x := range ts {
			n := 1
			for _, d := range x.Shape {
				n *= d
			}
			if n != len(x.Data) {
				t.Fatalf("tensor %s: %d values for shape %v", name, len(x.Data), x.Shape)
			}
		}
	})
}

type bytesReaderAt []byte

func (b bytesReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 || off > int64(len(b)) {
		return 0, os.ErrInvalid
	}
	n := copy(p, b[off:])
	if n < len(p) {
		return n, os.ErrClosed
	}
	return n, nil
}
