package run

import (
	"strings"
	"testing"
)

func TestGateWhy(t *testing.T) {
	cal := Calibration{Localized: []string{"mrtpo"}, Rewards: []RewardStart{
		{Reward: "a", Counted: true, Localization: map[string]float64{"mrtpo": 2.5}},
		{Reward: "b", Counted: true, Localization: map[string]float64{"mrtpo": 1.4}},
		{Reward: "c", Counted: false, Localization: map[string]float64{"mrtpo": 0.2}}, // not counted: not gated
		{Reward: "d", Counted: true},
	}}
	for _, tc := range []struct {
		name string
		gate Gate
		cal  Calibration
		want []string // substrings of Why; none: passes
	}{
		{"passes", Gate{"mrtpo": 1.2}, Calibration{Localized: []string{"mrtpo"}, Rewards: cal.Rewards[:3]}, nil},
		{"below", Gate{"mrtpo": 2}, cal, []string{"mrtpo's localization on b is 1.40 < 2", "on d is undefined"}},
		{"not measured", Gate{"span": 2}, cal, []string{"does not measure span's localization"}},
		{"empty gate", Gate{}, cal, nil},
		{"nothing counted", Gate{"mrtpo": 0.1}, Calibration{Localized: []string{"mrtpo"}, Rewards: cal.Rewards[2:3]}, []string{"counts no reward"}},
	} {
		why := tc.gate.Why(tc.cal)
		if (why == "") != (len(tc.want) == 0) {
			t.Fatalf("%s: Why = %q, want %v", tc.name, why, tc.want)
		}
		for _, w := range tc.want {
			if !strings.Contains(why, w) {
				t.Errorf("%s: Why = %q lacks %q", tc.name, why, w)
			}
		}
		if strings.Contains(why, " c ") || strings.Contains(why, "on c") {
			t.Errorf("%s: an uncounted reward gates: %q", tc.name, why)
		}
	}
}

func TestParseGate(t *testing.T) {
	g, err := ParseGate("mrtpo=2, span=1.5")
	if err != nil || len(g) != 2 || g["mrtpo"] != 2 || g["span"] != 1.5 {
		t.Fatalf("ParseGate = %v, %v", g, err)
	}
	if again, err := ParseGate(g.String()); err != nil || g.String() != "mrtpo=2,span=1.5" || len(again) != 2 || again["span"] != 1.5 {
		t.Errorf("String %q reads back as %v, %v", g.String(), again, err)
	}
	if g, err := ParseGate(""); err != nil || len(g) != 0 {
		t.Fatalf("empty: %v, %v", g, err)
	}
	for _, bad := range []string{"mrtpo", "mrtpo=", "=2", "mrtpo=0", "mrtpo=-1", "mrtpo=2x", "mrtpo=NaN", "mrtpo=Inf", "mrtpo=2,mrtpo=3"} {
		if _, err := ParseGate(bad); err == nil {
			t.Errorf("ParseGate(%q) accepted", bad)
		}
	}
}
