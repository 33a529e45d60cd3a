package credit

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
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
