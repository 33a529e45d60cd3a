package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/rl"
)

// The credit settings of issue 12 and 13 have flags; given on the command
// line they win over a config file (applyBase parses them again over it).
func TestCreditModeFlags(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.json")
	if err := os.WriteFile(path, []byte(`{"credit":{"cap":"sum","js":"divergence","step_reward":"unsigned","warmup_steps":9}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	c := rl.DefaultConfig()
	fs := newFlags("train", "", io.Discard, io.Discard)
	trainFlags(fs, &c)
	args := strings.Fields("--cap reward --js distance --step-reward centred --span-warmup 3")
	if err := fs.FlagSet.Parse(args); err != nil {
		t.Fatal(err)
	}
	if err := applyBase(fs, args, path, false, &c); err != nil {
		t.Fatal(err)
	}
	cc := c.Credit
	if cc.Cap != credit.CapReward || cc.JS != credit.JSFormDistance || cc.StepReward != credit.StepCentred || cc.SpanWarmup != 3 || cc.ReplayWarmup != 9 {
		t.Errorf("credit settings %+v", cc)
	}
	if err := cc.Validate(); err != nil {
		t.Error(err)
	}
}
