package lab

import (
	"strings"
	"testing"

	"github.com/credo-rl/credo/run"
)

// TestCountsSomething: a calibration that counts no reward stops the
// comparison with each reward's reason (issue 27: compare trained on and
// printed a table of zeros at 100% zero-variance groups).
func TestCountsSomething(t *testing.T) {
	none := run.Calibration{Rewards: []run.RewardStart{
		{Reward: "format", Why: "already at 0.97 (≥ 0.80): little left to learn"},
		{Reward: "call", Why: "100% of groups have no variance (≥ 30%): too little signal"},
	}}
	err := countsSomething(none, "w/calibration.json")
	if err == nil || !strings.Contains(err.Error(), "counts no reward") || !strings.Contains(err.Error(), "call 100% of groups") {
		t.Errorf("no reward counted: %v", err)
	}
	one := none
	one.Rewards = append([]run.RewardStart{{Reward: "result", Counted: true}}, none.Rewards...)
	if err := countsSomething(one, "w/calibration.json"); err != nil {
		t.Errorf("one reward counted: %v", err)
	}
}
