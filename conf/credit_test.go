package conf

import (
	"encoding/json"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/credo-rl/credo/credit"
)

// config.json files of older runs have one "warmup_steps" for every
// source: it still loads, into both; given beside the per-source keys, or
// next to an unknown key, the file is refused with the key named.
func TestConfigLegacyJSON(t *testing.T) {
	var c Credit
	if err := json.Unmarshal([]byte(`{"beta":0.5,"warmup_steps":7}`), &c); err != nil {
		t.Fatal(err)
	}
	if c.SpanWarmup != 7 || c.ReplayWarmup != 7 || c.Beta != 0.5 {
		t.Errorf("old config read as %+v", c)
	}
	// Keys not in the file keep the values already there.
	c = DefaultCredit()
	if err := json.Unmarshal([]byte(`{"replay_warmup_steps":3}`), &c); err != nil || c.ReplayWarmup != 3 || c.SpanWarmup != 0 || c.Kappa != 4 {
		t.Errorf("partial config: %v %+v", err, c)
	}
	// Its P2T switch "signed" becomes the step reward it meant.
	for body, want := range map[string]credit.StepReward{`{"signed":true}`: credit.StepSigned, `{"signed":false}`: credit.StepUnsigned} {
		c := DefaultCredit()
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
		c := DefaultCredit()
		if err := json.Unmarshal([]byte(body), &c); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want it to contain %q", body, err, want)
		}
	}
}

// A YAML config has the JSON keys and the same rules.
func TestConfigYAML(t *testing.T) {
	c := DefaultCredit()
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

// TestCreditProblems: each invalid option is named by its key under
// credit.; valid settings have none.
func TestCreditProblems(t *testing.T) {
	for _, tc := range []struct {
		edit func(*Credit)
		want []string
	}{
		{func(*Credit) {}, nil},
		{func(c *Credit) { c.Beta = 2 }, []string{"credit.beta"}},
		{func(c *Credit) { c.Beta, c.Eta = -1, 3 }, []string{"credit.beta", "credit.eta"}},
		{func(c *Credit) { c.Target = "x" }, []string{"credit"}}, // an error without a key
	} {
		c := DefaultCredit()
		tc.edit(&c)
		var got []string
		for _, p := range c.Problems() {
			got = append(got, p.Key)
		}
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("problems %v, want %v", got, tc.want)
		}
	}
}
