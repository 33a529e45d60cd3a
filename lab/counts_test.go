package lab

import (
	"slices"
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

// TestCountedWarning: compare warns before its runs when no reward is
// counted on every warm-up, naming where each is, and says nothing when
// one is.
func TestCountedWarning(t *testing.T) {
	cal := func(counted ...string) run.Calibration {
		var c run.Calibration
		for _, k := range []string{"slot1", "slot2", "slot3"} {
			c.Rewards = append(c.Rewards, run.RewardStart{Reward: k, Counted: slices.Contains(counted, k)})
		}
		return c
	}
	for _, tc := range []struct {
		name string
		cals []run.Calibration
		want string // "": no warning
	}{
		{"one shared", []run.Calibration{cal("slot1", "slot2"), cal("slot2"), cal("slot2", "slot3")}, ""},
		{"none shared", []run.Calibration{cal("slot1", "slot2"), cal("slot2"), cal("slot1")},
			"no reward is counted on every warm-up (slot1 on warm-ups 1, 3; slot2 on warm-ups 1, 2)"},
	} {
		got := countedWarning(tc.cals)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestHeadlineRule: compare.json records the own rule (and "" for shared,
// as every compare.json before the field), and an unknown rule is refused
// before any work.
func TestHeadlineRule(t *testing.T) {
	for _, tc := range []struct {
		rule, saved, err string
	}{
		{"", "", ""},
		{run.HeadlineShared, "", ""},
		{run.HeadlineOwn, run.HeadlineOwn, ""},
		{"mine", "", `headline: must be shared or own, got "mine"`},
	} {
		c := tinyCompare(t)
		c.Headline = tc.rule
		err := c.validate()
		if (tc.err == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("rule %q: %v, want %q", tc.rule, err, tc.err)
		}
		if err != nil {
			continue
		}
		m, err := c.manifest()
		if err != nil || m.Headline != tc.saved {
			t.Errorf("rule %q: compare.json's headline %q (%v), want %q", tc.rule, m.Headline, err, tc.saved)
		}
	}
}

// TestJudgeable: a warm-up that counts no reward stops a comparison,
// except one of several under --headline own, which warns and goes on
// (the headline leaves its runs out).
func TestJudgeable(t *testing.T) {
	none := run.Calibration{Rewards: []run.RewardStart{{Reward: "slot1", Why: "90% of groups have no variance"}}}
	for _, tc := range []struct {
		name    string
		index   int
		own     bool
		err     bool
		warning bool
	}{
		{"shared, several warm-ups", 4, false, true, false},
		{"own, several warm-ups", 4, true, false, true},
		{"own, one warm-up", 0, true, true, false},
	} {
		var log strings.Builder
		err := judgeable(none, site{index: tc.index, calibration: "w/calibration.json"}, tc.own, &log)
		if (err != nil) != tc.err || strings.Contains(log.String(), "warm-up 4 counts no reward") != tc.warning {
			t.Errorf("%s: error %v, log %q; want error %v, warning %v", tc.name, err, log.String(), tc.err, tc.warning)
		}
	}
}
