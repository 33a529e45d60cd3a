package report

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/credo-rl/credo/run"
)

// synthetic is a comparison of methods on rewards over warmups × seeds
// (warmups 0: one warm-up), each run's reward curves rising at a
// method-dependent speed, one run of the third method stopped early, and,
// when calibrated, a calibration that leaves the last reward out.
func synthetic(methods, rewards []string, warmups, seeds int, calibrated bool) *Comparison {
	c := &Comparison{Task: "slots", Methods: methods, Threshold: 0.8, Window: 5, Steps: 30}
	rng := rand.New(rand.NewPCG(uint64(warmups), uint64(seeds)))
	if calibrated {
		c.Calibration = &run.Calibration{Eval: map[string]float64{}}
		for i, k := range rewards {
			c.Calibration.Rewards = append(c.Calibration.Rewards, run.RewardStart{Reward: k, Pass: 0.35, Counted: i < len(rewards)-1, Why: "already at 0.95"})
			c.Calibration.Eval[k] = 0.9
		}
	}
	for w := range max(warmups, 1) {
		for s := 1; s <= seeds; s++ {
			for i, m := range methods {
				series := map[string][]float64{"response/length": {}, "time/step": {}}
				steps := c.Steps
				if i == 2 && s == 1 && w == 0 {
					steps = 20
				}
				for _, k := range rewards {
					var xs []float64
					for step := range steps {
						xs = append(xs, math.Min(1, 0.35+float64(step)*(0.02+0.002*float64(i))+0.05*rng.Float64()))
					}
					series[run.RewardKey(k, "mean")] = xs
					ev := make([]float64, steps)
					for j := range ev {
						ev[j] = nan
					}
					ev[steps-1] = 0.9 + 0.1*rng.Float64()
					series[run.EvalKey("greedy", k)] = ev
				}
				r := runOf(m, uint64(s), c.Steps, series)
				if warmups > 0 {
					r.Warmup = w + 1
				}
				c.Runs = append(c.Runs, r)
			}
		}
	}
	return c
}

var (
	sixMethods  = []string{"grpo", "gdpo", "span", "mrtpo", "p2t", "saw+mrtpo"}
	slotRewards = []string{"slot1", "slot2", "slot3", "slot4"}
	ifevalKinds = []string{"words", "include", "forbid", "end", "lowercase", "no_comma", "bullets", "title"}
)

// TestTextWidth: the terminal table, its notes and closing lines fit
// TextWidth columns for the built-in tasks' reward names, six methods
// with † and not-counted rewards, at one seed and with intervals; with
// fewer than two units there is no interval, no ± and no (1/1).
func TestTextWidth(t *testing.T) {
	for _, tc := range []struct {
		name             string
		methods, rewards []string
		warmups, seeds   int
		calibrated       bool
	}{
		{"demo: one seed, slots", []string{"grpo", "gdpo", "span", "mrtpo"}, slotRewards[:3], 0, 1, true},
		{"six methods, 3 warm-ups × 4 seeds", sixMethods, slotRewards, 3, 4, true},
		{"ifeval, 5 seeds", sixMethods, ifevalKinds, 0, 5, true},
		{"sql, uncalibrated, 8 seeds", sixMethods, []string{"format", "executes", "result"}, 0, 8, false},
		{"one method", []string{"span"}, []string{"format", "call"}, 0, 1, false},
		{"long names", []string{"grpo", "gdpo", "saw+p2t-code", "saw+mrtpo+joint"}, ifevalKinds, 0, 5, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			txt := Text(Table(synthetic(tc.methods, tc.rewards, tc.warmups, tc.seeds, tc.calibrated)))
			for _, l := range strings.Split(txt, "\n") {
				if n := utf8.RuneCountInString(l); n > TextWidth {
					t.Errorf("line of %d columns, more than %d: %q", n, TextWidth, l)
				}
			}
			units := max(tc.warmups, tc.seeds)
			if tc.warmups > 0 {
				units = tc.warmups
			}
			oneSeed := units < 2
			for _, bad := range []string{"[95% CI]", "± 0.000", "(1/1)"} {
				if strings.Contains(txt, bad) {
					t.Errorf("Text holds %q:\n%s", bad, txt)
				}
			}
			table := txt[:strings.Index(txt, "\n\n")]
			if got := strings.Contains(table, "±"); got == oneSeed && len(tc.methods) > 1 {
				t.Errorf("intervals shown %v with %d units:\n%s", got, units, txt)
			}
			if got := strings.Contains(txt, "One seed cannot rank methods"); got != (oneSeed && len(tc.methods) > 1) {
				t.Errorf("the one-seed closing line shown %v:\n%s", got, txt)
			}
			if !strings.Contains(txt, "What the runs show: ") {
				t.Errorf("no closing line:\n%s", txt)
			}
			t.Logf("\n%s", txt)
		})
	}
}

func TestWrap(t *testing.T) {
	for _, tc := range []struct {
		in    string
		width int
		want  string
	}{
		{"a bb ccc", 4, "a bb\nccc\n"},
		{"a bb ccc", 8, "a bb ccc\n"},
		{"averyveryverylongword b", 5, "averyveryverylongword\nb\n"},
		{"½ Δ ± — x", 5, "½ Δ ±\n— x\n"}, // runes, not bytes
		{"", 10, "\n"},
	} {
		if got := wrap(tc.in, tc.width); got != tc.want {
			t.Errorf("wrap(%q, %d) = %q, want %q", tc.in, tc.width, got, tc.want)
		}
	}
}
