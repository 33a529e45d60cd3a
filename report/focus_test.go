package report

import (
	"strings"
	"testing"

	"github.com/credo-rl/credo/run"
)

// TestFocusNote: the calibrations' focus figures reach the table's head,
// merged over warm-ups with each share weighted by its failed verdicts;
// uncounted rewards and rewards without quoting failures are left out.
func TestFocusNote(t *testing.T) {
	cal := func(blamed int, tokens, uniform float64) *run.Calibration {
		return &run.Calibration{Rewards: []run.RewardStart{
			{Reward: "call", Counted: true, Blamed: blamed, BlamedTokens: tokens, BlamedUniform: uniform},
			{Reward: "format", Counted: false, Why: "already at 0.90", Blamed: 10, BlamedTokens: 0.5, BlamedUniform: 0.9},
			{Reward: "words", Counted: true},
		}}
	}
	tests := []struct {
		name   string
		cals   []*run.Calibration
		want   string // "" : no note
		absent []string
	}{
		{"one warm-up", []*run.Calibration{cal(4, 0.40, 0.60)}, "call 40% / 60%.", []string{"format", "words"}},
		{"weighted over warm-ups", []*run.Calibration{cal(1, 0.10, 0.10), cal(3, 0.50, 0.70)}, "call 40% / 55%.", []string{"format"}},
		{"no quoting failures", []*run.Calibration{cal(0, 0, 0)}, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &Comparison{Calibration: mergeCalibrations(tt.cals)}
			note := FocusNote(c)
			if tt.want == "" {
				if note != "" {
					t.Errorf("note %q, want none", note)
				}
				return
			}
			if !strings.HasPrefix(note, "Focus, from the calibration") || !strings.HasSuffix(note, tt.want) {
				t.Errorf("note %q, want it to end %q", note, tt.want)
			}
			for _, s := range tt.absent {
				if strings.Contains(note, s+" ") {
					t.Errorf("note names %s: %q", s, note)
				}
			}
		})
	}
	if FocusNote(&Comparison{}) != "" {
		t.Error("an uncalibrated comparison gets a focus note")
	}
}
