package hf

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/credo-rl/credo/model"
)

const baseConfig = `{"model_type":"llama","vocab_size":40,"hidden_size":32,"intermediate_size":64,
	"num_hidden_layers":2,"num_attention_heads":4,"num_key_value_heads":2,
	"max_position_embeddings":64,"rms_norm_eps":1e-6,
	"tie_word_embeddings":false,"hidden_act":"silu"`

// hasWeight reports whether a model of config c has the weight of that
// name in its first layer: how a config's biases and q/k norms show.
func hasWeight(c model.Config, name string) bool {
	return slices.ContainsFunc(c.Params(), func(p model.ParamSpec) bool { return p.Name == "model.layers.0."+name })
}

// headDim is the per-head width a model of config c computes with: its
// q_proj's rows over the heads.
func headDim(c model.Config) int {
	for _, p := range c.Params() {
		if p.Name == "model.layers.0.self_attn.q_proj.weight" {
			return p.Shape[0] / c.NumAttentionHeads
		}
	}
	return 0
}

// TestParseConfigKeys pins what each understood key does and that what
// credo does not implement is refused in one line naming the key.
func TestParseConfigKeys(t *testing.T) {
	llama3 := `"rope_type":"llama3","factor":8,"low_freq_factor":1,"high_freq_factor":4,"original_max_position_embeddings":32`
	want := func(f func(c model.Config) bool) func(model.Config) bool { return f }
	tests := []struct {
		name, extra string
		check       func(model.Config) bool // for accepted configs
		err         string                  // for refused ones
	}{
		{"rope_theta", `,"rope_theta":500000`, want(func(c model.Config) bool { return c.RopeTheta == 500000 && c.RopeScaling == nil }), ""},
		{"rope_scaling null", `,"rope_theta":1e4,"rope_scaling":null`, want(func(c model.Config) bool { return c.RopeScaling == nil }), ""},
		{"rope_scaling default", `,"rope_theta":1e4,"rope_scaling":{"rope_type":"default"}`, want(func(c model.Config) bool { return c.RopeScaling == nil }), ""},
		{"rope_scaling llama3", `,"rope_theta":1e4,"rope_scaling":{` + llama3 + `}`,
			want(func(c model.Config) bool {
				r := c.RopeScaling
				return r != nil && r.Factor == 8 && r.LowFreqFactor == 1 && r.HighFreqFactor == 4 && r.OriginalMaxPositionEmbeddings == 32
			}), ""},
		{"rope_scaling legacy type key", `,"rope_theta":1e4,"rope_scaling":{"type":"llama3","factor":8,"low_freq_factor":1,"high_freq_factor":4,"original_max_position_embeddings":32}`,
			want(func(c model.Config) bool { return c.RopeScaling != nil && c.RopeScaling.RopeType == "llama3" }), ""},
		{"rope_parameters default", `,"rope_parameters":{"rope_type":"default","rope_theta":1e6}`, want(func(c model.Config) bool { return c.RopeTheta == 1e6 && c.RopeScaling == nil }), ""},
		{"rope_parameters llama3", `,"rope_parameters":{` + llama3 + `,"rope_theta":5e5}`,
			want(func(c model.Config) bool {
				return c.RopeTheta == 5e5 && c.RopeScaling != nil && c.RopeScaling.Factor == 8
			}), ""},
		{"rope_parameters llama3 without original length", `,"rope_parameters":{"rope_type":"llama3","factor":8,"low_freq_factor":1,"high_freq_factor":4,"rope_theta":5e5}`,
			want(func(c model.Config) bool { return c.RopeScaling.OriginalMaxPositionEmbeddings == 64 }), ""}, // transformers 5 uses max_position_embeddings
		{"rope_parameters by layer type", `,"layer_types":["full_attention","full_attention"],"rope_parameters":{"full_attention":{"rope_type":"default","rope_theta":1e6}}}`,
			want(func(c model.Config) bool { return c.RopeTheta == 1e6 }), ""},
		{"rope_parameters partial_rotary_factor 1", `,"rope_parameters":{"rope_type":"default","rope_theta":1e6,"partial_rotary_factor":1.0}`, want(func(c model.Config) bool { return true }), ""},
		{"layer_types all full", `,"rope_theta":1e4,"layer_types":["full_attention","full_attention"]`, want(func(c model.Config) bool { return true }), ""},
		{"mlp_bias", `,"rope_theta":1e4,"mlp_bias":true`, want(func(c model.Config) bool { return c.MLPBias && hasWeight(c, "mlp.gate_proj.bias") }), ""},
		{"attention_bias", `,"rope_theta":1e4,"attention_bias":true`, want(func(c model.Config) bool {
			return hasWeight(c, "self_attn.q_proj.bias") && hasWeight(c, "self_attn.o_proj.bias")
		}), ""},
		{"dtype (transformers 5)", `,"rope_theta":1e4,"dtype":"bfloat16"`, want(func(c model.Config) bool { return c.TorchDtype == "bfloat16" }), ""},
		{"architectures filled in", `,"rope_theta":1e4`, want(func(c model.Config) bool { return slices.Equal(c.Architectures, []string{"LlamaForCausalLM"}) }), ""},
		{"token classification from id2label", `,"rope_theta":1e4,"architectures":["LlamaForTokenClassification"],"id2label":{"0":"LABEL_0"},"label2id":{"LABEL_0":0}}`,
			want(func(c model.Config) bool { return c.NumLabels == 1 }), ""},
		{"attention_dropout 0", `,"rope_theta":1e4,"attention_dropout":0.0`, want(func(c model.Config) bool { return true }), ""},

		{"yarn", `,"rope_theta":1e4,"rope_scaling":{"rope_type":"yarn","factor":4,"original_max_position_embeddings":32}`, nil, `rope_type "yarn" is not supported`},
		{"dynamic", `,"rope_theta":1e4,"rope_scaling":{"type":"dynamic","factor":2}`, nil, `rope_type "dynamic" is not supported`},
		{"linear in rope_parameters", `,"rope_parameters":{"rope_type":"linear","factor":2,"rope_theta":1e4}`, nil, `rope_parameters: rope_type "linear" is not supported`},
		{"llama3 missing factor", `,"rope_theta":1e4,"rope_scaling":{"rope_type":"llama3","low_freq_factor":1,"high_freq_factor":4,"original_max_position_embeddings":32}`, nil, "llama3 needs factor"},
		{"llama3 unknown key", `,"rope_theta":1e4,"rope_scaling":{` + llama3 + `,"attention_factor":2}`, nil, `"attention_factor" not understood`},
		{"llama3 inverted factors", `,"rope_theta":1e4,"rope_scaling":{"rope_type":"llama3","factor":8,"low_freq_factor":4,"high_freq_factor":1,"original_max_position_embeddings":32}`, nil, "must exceed low_freq_factor"},
		{"partial rotary", `,"rope_parameters":{"rope_type":"default","rope_theta":1e4,"partial_rotary_factor":0.5}`, nil, "partial_rotary_factor 0.5 is not supported"},
		{"rope_theta disagrees", `,"rope_theta":1e4,"rope_parameters":{"rope_type":"default","rope_theta":1e6}`, nil, "disagree"},
		{"both rope_scaling and rope_parameters", `,"rope_scaling":{` + llama3 + `},"rope_parameters":{"rope_type":"default","rope_theta":1e6}`, nil, "say it once"},
		{"sliding layer", `,"rope_theta":1e4,"layer_types":["full_attention","sliding_attention"]`, nil, `layer_types[1] = "sliding_attention" is not supported`},
		{"layer_types length", `,"rope_theta":1e4,"layer_types":["full_attention"]`, nil, "1 entries for 2 layers"},
		{"sliding rope parameters", `,"rope_parameters":{"sliding_attention":{"rope_type":"default","rope_theta":1e4}}`, nil, "sliding_attention is not supported"},
		{"sliding window on", `,"rope_theta":1e4,"use_sliding_window":true`, nil, "use_sliding_window = true is not supported"},
		{"interleaved rope", `,"rope_theta":1e4,"rope_interleaved":true`, nil, "rope_interleaved = true is not supported"},
		{"attention dropout", `,"rope_theta":1e4,"attention_dropout":0.1`, nil, "attention_dropout = 0.1 is not supported"},
		{"dtype disagrees", `,"rope_theta":1e4,"dtype":"bfloat16","torch_dtype":"float32"`, nil, "disagree"},
		{"float64 storage", `,"rope_theta":1e4,"torch_dtype":"float64"`, nil, `torch_dtype "float64" is not supported`},
		{"foreign architecture", `,"rope_theta":1e4,"architectures":["MistralForCausalLM"]`, nil, "do not match"},
		{"sequence classification", `,"rope_theta":1e4,"architectures":["LlamaForSequenceClassification"],"num_labels":1`, nil, "do not match"},
		{"unknown key", `,"rope_theta":1e4,"quantization_config":{}`, nil, `unknown field "quantization_config"`},
		{"absurd layer count", `,"rope_theta":1e4,"num_hidden_layers":1000000000`, nil, "beyond any real model's"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			js := baseConfig + tt.extra
			if strings.Count(js, "{") > strings.Count(js, "}") {
				js += "}" // close the config unless the case did
			}
			c, err := ParseConfig([]byte(js))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one containing %q", err, tt.err)
				}
				if strings.Contains(err.Error(), "\n") {
					t.Errorf("error spans lines: %q", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !tt.check(c) {
				t.Errorf("parsed to %+v", c)
			}
			// What credo understood survives its own save.
			dir := t.TempDir()
			if err := WriteConfig(dir, c); err != nil {
				t.Fatal(err)
			}
			back, err := ReadConfig(dir)
			if err != nil {
				t.Fatal(err)
			}
			if !equalConfig(back, c.Normalized()) {
				t.Errorf("round trip changed the config:\n%+v\n%+v", back, c)
			}
		})
	}
}

// TestInertKeysChangeNothing: every key accepted without effect leaves the
// parsed Config, and so the computation, exactly as without it; each
// carries its reason.
func TestInertKeysChangeNothing(t *testing.T) {
	values := map[string]string{
		"_name_or_path": `"Qwen/Qwen3-0.6B"`, "transformers_version": `"4.51.0"`, "use_cache": "false",
		"initializer_range": "0.5", "pretraining_tp": "4", "max_window_layers": "1", "sliding_window": "8",
		"label2id": `{"LABEL_0":0}`, "_attn_implementation_autoset": "true", "is_llama_config": "true",
	}
	base, err := ParseConfig([]byte(baseConfig + `,"rope_theta":1e4}`))
	if err != nil {
		t.Fatal(err)
	}
	for key, why := range inertKeys {
		v, ok := values[key]
		if !ok {
			t.Errorf("no test value for inert key %s", key)
			continue
		}
		if why == "" {
			t.Errorf("inert key %s has no reason", key)
		}
		c, err := ParseConfig([]byte(baseConfig + `,"rope_theta":1e4,"` + key + `":` + v + `}`))
		if err != nil {
			t.Errorf("%s: %v", key, err)
			continue
		}
		if !equalConfig(c, base) {
			t.Errorf("%s changed the config", key)
		}
		t.Logf("%-22s accepted: %s", key, why)
	}
}

// TestPublishedConfigs parses config.json files of real checkpoints, as
// transformers 4 wrote them (Llama 3.2 with llama3 rope scaling, Qwen2.5,
// Qwen3) and as transformers 5 writes the same models (dtype,
// rope_parameters, layer_types), and checks that both forms of a model
// give the same Config.
func TestPublishedConfigs(t *testing.T) {
	load := func(name string) model.Config {
		t.Helper()
		data, err := os.ReadFile(filepath.Join("testdata", "configs", name))
		if err != nil {
			t.Fatal(err)
		}
		c, err := ParseConfig(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return c
	}
	llama, qwen2, qwen3 := load("llama-3.2-1b.json"), load("qwen2.5-0.5b.json"), load("qwen3-0.6b.json")
	if r := llama.RopeScaling; r == nil || r.Factor != 32 || r.OriginalMaxPositionEmbeddings != 8192 || llama.RopeTheta != 5e5 || headDim(llama) != 64 {
		t.Errorf("llama 3.2: %+v", llama)
	}
	if !hasWeight(qwen2, "self_attn.q_proj.bias") || hasWeight(qwen2, "self_attn.o_proj.bias") || headDim(qwen2) != 64 || qwen2.TorchDtype != "bfloat16" {
		t.Errorf("qwen2.5: %+v", qwen2)
	}
	if !hasWeight(qwen3, "self_attn.q_norm.weight") || hasWeight(qwen3, "self_attn.q_proj.bias") || headDim(qwen3) != 128 || qwen3.HiddenSize/qwen3.NumAttentionHeads == 128 {
		t.Errorf("qwen3: %+v", qwen3)
	}
	for name, want := range map[string]model.Config{"llama-3.2-1b-v5.json": llama, "qwen3-0.6b-v5.json": qwen3} {
		if got := load(name); !equalConfig(got, want) {
			t.Errorf("%s parses differently from its transformers 4 form:\n%+v\n%+v", name, got, want)
		}
	}
}

// A Qwen3 config without head_dim means Qwen3Config's default of 128, not
// hidden/heads, as in transformers.
func TestQwen3DefaultHeadDim(t *testing.T) {
	c, err := ParseConfig([]byte(strings.Replace(baseConfig, `"llama"`, `"qwen3"`, 1) + `,"rope_theta":1e4}`))
	if err != nil {
		t.Fatal(err)
	}
	if headDim(c) != 128 {
		t.Errorf("head dim %d, want 128", headDim(c))
	}
	if got := c.Params()[2]; got.Name != "model.layers.0.self_attn.q_proj.weight" || !slices.Equal(got.Shape, []int{4 * 128, 32}) {
		t.Errorf("q_proj %s %v", got.Name, got.Shape)
	}
}

// FuzzParseConfig: any bytes give a config or an error, never a panic; an
// accepted config validates, builds its parameter list and survives
// its own save.
func FuzzParseConfig(f *testing.F) {
	f.Add([]byte(baseConfig + `,"rope_theta":1e4}`))
	for _, name := range []string{"llama-3.2-1b.json", "qwen3-0.6b-v5.json"} {
		if data, err := os.ReadFile(filepath.Join("testdata", "configs", name)); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"rope_scaling":{"full_attention":{"full_attention":null}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ParseConfig(data)
		if err != nil {
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("accepted config does not validate: %v", err)
		}
		if n := len(c.Params()); n < 3 {
			t.Fatalf("%d parameters", n)
		}
		out, err := json.Marshal(c.Normalized())
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseConfig(out)
		if err != nil {
			t.Fatalf("credo cannot read its own config %s: %v", out, err)
		}
		if !equalConfig(back, c.Normalized()) {
			t.Fatalf("round trip changed %s", out)
		}
	})
}

// TestConfigSaveWritesArchitecture: every config credo writes names HF's
// class and the storage dtype, so transformers can load the folder.
func TestConfigSaveWritesArchitecture(t *testing.T) {
	tests := []struct {
		c    model.Config
		arch string
	}{
		{model.Tiny(40), "Qwen2ForCausalLM"},
		{model.Small(40), "LlamaForCausalLM"},
		{func() model.Config { c := model.Tiny(40); c.ModelType, c.HeadDim = "qwen3", 16; return c }(), "Qwen3ForCausalLM"},
		{func() model.Config { c := model.Small(40); c.NumLabels, c.TieWordEmbeddings = 1, false; return c }(), "LlamaForTokenClassification"},
	}
	for _, tt := range tests {
		m, err := model.New(tt.c, 1)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		if err := Save(m, dir); err != nil {
			t.Fatal(err)
		}
		var raw map[string]any
		data, _ := os.ReadFile(filepath.Join(dir, "config.json"))
		if err := json.Unmarshal(data, &raw); err != nil {
			t.Fatal(err)
		}
		if a, _ := raw["architectures"].([]any); len(a) != 1 || a[0] != tt.arch {
			t.Errorf("architectures %v, want [%s]", raw["architectures"], tt.arch)
		}
		if raw["torch_dtype"] != "float32" {
			t.Errorf("%s: torch_dtype %v, want float32", tt.arch, raw["torch_dtype"])
		}
		if _, err := Load(dir); err != nil {
			t.Errorf("%s: %v", tt.arch, err)
		}
	}
}
