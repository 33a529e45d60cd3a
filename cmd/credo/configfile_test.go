package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/credo-rl/credo/rl"
)

// TestConfigFileTakesFlagNames: a config file may name a setting by its
// flag (kl_coef, kl-coef, place_beta, prompts), read as the setting's key
// with a notice; the same setting given twice is an error (issue 27:
// {"kl_coef": …} was refused as unknown).
func TestConfigFileTakesFlagNames(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	want := rl.DefaultConfig()
	if err := rl.LoadConfigFile(write("keys.json", `{"kl_beta": 0.02, "prompts_per_step": 3, "credit": {"beta": 0.7}}`), &want); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, body string }{
		{"flags.json", `{"kl_coef": 0.02, "prompts": 3, "place_beta": 0.7}`},
		{"flags.yaml", "kl-coef: 0.02\nprompts: 3\nplace_beta: 0.7\n"},
	} {
		got := rl.DefaultConfig()
		var notices bytes.Buffer
		if err := loadTrainConfig(write(tc.name, tc.body), &got, &notices); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got.KLBeta != want.KLBeta || got.PromptsPerStep != want.PromptsPerStep || got.Credit.Beta != want.Credit.Beta {
			t.Errorf("%s read as kl %v prompts %d beta %v, want %v %d %v", tc.name, got.KLBeta, got.PromptsPerStep, got.Credit.Beta, want.KLBeta, want.PromptsPerStep, want.Credit.Beta)
		}
		if n := strings.Count(notices.String(), "read as the setting's key"); n != 3 {
			t.Errorf("%s: %d notices, want 3:\n%s", tc.name, n, notices.String())
		}
	}
	c := rl.DefaultConfig()
	if err := loadTrainConfig(write("twice.json", `{"kl_coef": 0.02, "kl_beta": 0.03}`), &c, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "kl_beta") {
		t.Errorf("the same setting twice: %v", err)
	}
	if err := loadTrainConfig(write("unknown.json", `{"kl_coeff": 0.02}`), &c, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "kl_coeff") {
		t.Errorf("an unknown key: %v", err)
	}
	code, out, _ := credo(context.Background(), "help", "config")
	if code != 0 || !strings.Contains(out, "kl_beta") || !strings.Contains(out, "--kl-coef") || !strings.Contains(out, "credit.beta") {
		t.Errorf("help config: exit %d\n%s", code, out)
	}
}
