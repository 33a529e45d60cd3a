package credit

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

func TestConfigValidate(t *testing.T) {
	if err := DefaultConfig().Validate(); err != nil {
		t.Fatalf("defaults invalid: %v", err)
	}
	for _, tc := range []struct {
		edit func(*Config)
		want string
	}{
		{func(c *Config) { c.Eps = -1 }, "eps"},
		{func(c *Config) { c.Eps = math.NaN() }, "eps"},
		{func(c *Config) { c.Scale = "Group" }, `scale must be "group", "batch" or "none", got "Group"`},
		{func(c *Config) { c.Beta = 1.5 }, "beta"},
		{func(c *Config) { c.Beta = math.NaN() }, "beta"},
		{func(c *Config) { c.SpanWarmup = -1 }, "span_warmup_steps"},
		{func(c *Config) { c.ReplayWarmup = -1 }, "replay_warmup_steps"},
		{func(c *Config) { c.Kappa = 0.5 }, "kappa"},
		{func(c *Config) { c.Kappa = math.Inf(1) }, "kappa"},
		{func(c *Config) { c.Gamma = -0.1 }, "gamma"},
		{func(c *Config) { c.Null = "" }, "null"},
		{func(c *Config) { c.Norm = "l2" }, "norm"},
		{func(c *Config) { c.Temperature = 0 }, "temperature"},
		{func(c *Config) { c.Eta = 2 }, "eta"},
		{func(c *Config) { c.Alpha = math.Inf(-1) }, "alpha"},
		{func(c *Config) { c.StepReward = "" }, `step_reward must be "signed"`},
		{func(c *Config) { c.Target = "logit_diff" }, `influence_target must be "logit"`},
		{func(c *Config) { c.Carry = "max" }, `influence_carry must be "sum" or "mean"`},
		{func(c *Config) { c.Cap = "tokens" }, `cap must be "sum"`},
		{func(c *Config) { c.JS = "" }, `js must be "divergence"`},
		{func(c *Config) { c.SAWOffsets = map[string]float64{"b": math.NaN(), "a": math.Inf(1)} }, `saw_offsets["a"] must be finite, got +Inf` + "\n" + `saw_offsets["b"]`},
	} {
		c := DefaultConfig()
		tc.edit(&c)
		err := c.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("err = %v, want it to contain %q", err, tc.want)
		}
	}
	// Several problems are all reported.
	c := DefaultConfig()
	c.Beta, c.Eta = -1, -1
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "beta") || !strings.Contains(err.Error(), "eta") {
		t.Errorf("err = %v, want both beta and eta", err)
	}
}

func TestConfigJSON(t *testing.T) {
	c := DefaultConfig()
	c.SAWOffsets = map[string]float64{"format": 1}
	data, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"eps":0.0001`, `"scale":"group"`, `"beta":0.5`, `"span_warmup_steps":0`, `"replay_warmup_steps":10`, `"kappa":4`,
		`"cap":"sum"`, `"shuffle":false`, `"gamma":0.9`, `"js":"divergence"`, `"joint":false`, `"null":"pad"`, `"norm":"magnitude"`,
		`"temperature":1`, `"eta":0.5`, `"alpha":0.1`, `"step_reward":"signed"`, `"saw_offsets":{"format":1}`} {
		if !strings.Contains(string(data), key) {
			t.Errorf("config.json %s lacks %s", data, key)
		}
	}
	var back Config
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if back.Eps != c.Eps || back.Null != c.Null || back.SAWOffsets["format"] != 1 || back.ReplayWarmup != 10 {
		t.Errorf("round trip: %+v", back)
	}
}

// config.json files of older runs have one "warmup_steps" for every
// source: it still loads, into both; given beside the per-source keys, or
// next to an unknown key, the file is refused with the key named.
func TestConfigLegacyJSON(t *testing.T) {
	var c Config
	if err := json.Unmarshal([]byte(`{"beta":0.5,"warmup_steps":7}`), &c); err != nil {
		t.Fatal(err)
	}
	if c.SpanWarmup != 7 || c.ReplayWarmup != 7 || c.Beta != 0.5 {
		t.Errorf("old config read as %+v", c)
	}
	// Keys not in the file keep the values already there.
	c = DefaultConfig()
	if err := json.Unmarshal([]byte(`{"replay_warmup_steps":3}`), &c); err != nil || c.ReplayWarmup != 3 || c.SpanWarmup != 0 || c.Kappa != 4 {
		t.Errorf("partial config: %v %+v", err, c)
	}
	// Its P2T switch "signed" becomes the step reward it meant.
	for body, want := range map[string]StepReward{`{"signed":true}`: StepSigned, `{"signed":false}`: StepUnsigned} {
		c := DefaultConfig()
		if err := json.Unmarshal([]byte(body), &c); err != nil || c.StepReward != want {
			t.Errorf("%s: step reward %q (%v), want %q", body, c.StepReward, err, want)
		}
	}
	for body, want := range map[string]string{
		`{"signed":true,"step_reward":"centred"}`:    `"signed" (of older runs) and "step_reward"`,
		`{"warmup_steps":7,"span_warmup_steps":0}`:   `"warmup_steps" (of older runs) and "span_warmup_steps"`,
		`{"Warmup_Steps":7,"replay_warmup_steps":1}`: `"warmup_steps" (of older runs) and "replay_warmup_steps"`,
		`{"warmup_steps":"ten"}`:                     "warmup_steps",
		`{"betta":0.5}`:                              `unknown field "betta"`,
		`[1]`:                                        "credit config",
	} {
		c := DefaultConfig()
		if err := json.Unmarshal([]byte(body), &c); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want it to contain %q", body, err, want)
		}
	}
}

// A YAML config has the JSON keys and the same rules.
func TestConfigYAML(t *testing.T) {
	c := DefaultConfig()
	if err := yaml.Unmarshal([]byte("beta: 0.25\nspan_warmup_steps: 2\nsaw_offsets:\n  format: 1\n"), &c); err != nil {
		t.Fatal(err)
	}
	if c.Beta != 0.25 || c.SpanWarmup != 2 || c.ReplayWarmup != 10 || c.SAWOffsets["format"] != 1 {
		t.Errorf("YAML read as %+v", c)
	}
	if err := yaml.Unmarshal([]byte("warmup_steps: 4\n"), &c); err != nil || c.SpanWarmup != 4 || c.ReplayWarmup != 4 {
		t.Errorf("old YAML key: %v %+v", err, c)
	}
	if err := yaml.Unmarshal([]byte("warmupsteps: 4\n"), &c); err == nil || !strings.Contains(err.Error(), "warmupsteps") {
		t.Errorf("unknown YAML key: err = %v", err)
	}
}
