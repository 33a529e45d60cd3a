package report

import (
	"strings"
	"testing"

	"github.com/credo-rl/credo/run"
)

// ownComparison is gdpo and span on rewards a and b over three warm-ups
// (one seed each) whose calibrations count counted[w]: every reward starts
// at pass 0.4 (a) and 0.2 (b); gdpo's AUCs are 0.5 (a) and 0.3 (b), span's
// 0.5 + da[w] and 0.3 + db[w].
func ownComparison(headline string, counted [3][]string) *Comparison {
	da, db := []float64{0.02, 0.04, -0.10}, []float64{0.04, -0.10, 0.06}
	c := &Comparison{Methods: []string{"gdpo", "span"}, Baselines: []string{"gdpo"}, Threshold: 0.5, Window: 1,
		Headline: headline, Calibrations: map[int]*run.Calibration{}}
	var cals []*run.Calibration
	for w := 1; w <= 3; w++ {
		c.Warmups = append(c.Warmups, run.ManifestWarmup{Index: w, Seed: uint64(w)})
		cal := &run.Calibration{Rewards: []run.RewardStart{{Reward: "a", Pass: 0.4}, {Reward: "b", Pass: 0.2}},
			Eval: map[string]float64{"a": 0.4, "b": 0.2}}
		for i := range cal.Rewards {
			for _, k := range counted[w-1] {
				if cal.Rewards[i].Reward == k {
					cal.Rewards[i].Counted = true
				}
			}
			if !cal.Rewards[i].Counted {
				cal.Rewards[i].Why = "no room"
			}
		}
		c.Calibrations[w] = cal
		cals = append(cals, cal)
		a, b := 0.5+da[w-1], 0.3+db[w-1]
		gdpo := runOf("gdpo", 1, 2, map[string][]float64{"reward/a/mean": {0.5, 0.5}, "reward/b/mean": {0.3, 0.3}})
		span := runOf("span", 1, 2, map[string][]float64{"reward/a/mean": {a, a}, "reward/b/mean": {b, b}})
		gdpo.Warmup, span.Warmup = w, w
		c.Runs = append(c.Runs, gdpo, span)
	}
	c.Calibration = mergeCalibrations(cals)
	return c
}

// TestOwnHeadline: under run.HeadlineOwn each warm-up's runs average the
// rewards its own calibration counts, so warm-ups that count different
// rewards still make a headline; under the shared rule the same runs have
// none (no reward is counted on every warm-up).
func TestOwnHeadline(t *testing.T) {
	for _, tc := range []struct {
		name     string
		headline string
		counted  [3][]string
		// want: a headline row, its paired mean and units, its start
		has         bool
		mean, start float64
		n           int
		text        []string
	}{
		// Own differences: warm-up 1 (0.02 + 0.04)/2 = 0.03, 2 0.04 (a), 3
		// 0.06 (b): mean 0.04333; starts 0.3, 0.4, 0.2: 0.3.
		{"own, different rewards", run.HeadlineOwn, [3][]string{{"a", "b"}, {"a"}, {"b"}}, true, 0.13 / 3, 0.3, 3,
			[]string{"mean of own counted", "warm-up 1: a, b; warm-up 2: a; warm-up 3: b", "on the mean of each warm-up's own counted rewards"}},
		// A warm-up that counts nothing leaves its runs out: 0.03 and 0.04.
		{"own, a warm-up without", run.HeadlineOwn, [3][]string{{"a", "b"}, {"a"}, nil}, true, 0.035, 0.35, 2,
			[]string{"warm-up 3: none, so its runs are left out", "the headline comparison (its intervals over the 2 warm-ups that count one)", "Not counted on every warm-up, so outside the per-reward family"}},
		{"shared", "", [3][]string{{"a", "b"}, {"a"}, {"b"}}, false, 0, 0, 0, nil},
		// Shared and own agree when every warm-up counts the same rewards:
		// 0.03, −0.03, −0.02.
		{"own, the same rewards", run.HeadlineOwn, [3][]string{{"a", "b"}, {"a", "b"}, {"a", "b"}}, true, -0.02 / 3, 0.3, 3, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows := Table(ownComparison(tc.headline, tc.counted))
			var head *Row
			for i := range rows {
				if rows[i].Headline && rows[i].Method == "span" {
					head = &rows[i]
				}
			}
			if (head != nil) != tc.has {
				t.Fatalf("span's headline row present %v, want %v", head != nil, tc.has)
			}
			if head == nil {
				return
			}
			p := head.DeltaAUC["gdpo"]
			if !near(p.Mean, tc.mean) || p.N != tc.n || !near(head.Start, tc.start) || head.Family != FamilyHeadline {
				t.Errorf("span − gdpo mean %v over %d units, start %v, family %q; want %v over %d, start %v, headline",
					p.Mean, p.N, head.Start, head.Family, tc.mean, tc.n, tc.start)
			}
			md := Markdown(rows)
			for _, want := range tc.text {
				if !strings.Contains(md, want) {
					t.Errorf("Markdown lacks %q:\n%s", want, md)
				}
			}
		})
	}
}

// TestOwnMatchesShared: when every warm-up counts the same rewards the two
// rules give the same headline.
func TestOwnMatchesShared(t *testing.T) {
	same := [3][]string{{"a", "b"}, {"a", "b"}, {"a", "b"}}
	mean := func(rule string) float64 {
		for _, r := range Table(ownComparison(rule, same)) {
			if r.Headline && r.Method == "span" {
				return r.DeltaAUC["gdpo"].Mean
			}
		}
		t.Fatalf("rule %q: no headline row", rule)
		return 0
	}
	if own, shared := mean(run.HeadlineOwn), mean(""); !near(own, shared) {
		t.Errorf("own %v, shared %v: want them equal", own, shared)
	}
}
