package report

import (
	"math"
	"strings"
	"testing"

	"github.com/credo-rl/credo/run"
)

var inf, nan = math.Inf(1), math.NaN()

// runOf builds a run in memory from per-key series; NaN leaves the key
// out of that step, as a null in metrics.jsonl would.
func runOf(method string, seed uint64, steps int, series map[string][]float64) *Run {
	r := &Run{Method: method, Seed: seed, Steps: steps}
	for k, xs := range series {
		for s, x := range xs {
			for len(r.Metrics) <= s {
				r.Metrics = append(r.Metrics, Step{"step": float64(len(r.Metrics))})
			}
			if !math.IsNaN(x) {
				r.Metrics[s][k] = x
			}
		}
	}
	r.Incomplete = len(r.Metrics) < steps
	return r
}

func same(a, b float64) bool {
	return a == b || math.IsNaN(a) && math.IsNaN(b) || math.Abs(a-b) < 1e-12
}

func TestMovingMean(t *testing.T) {
	for _, tc := range []struct {
		name   string
		xs     []float64
		window int
		want   []float64
	}{
		{"empty", nil, 3, []float64{}},
		{"window 1 is the series", []float64{1, 2, 3}, 1, []float64{1, 2, 3}},
		{"window 0 counts as 1", []float64{1, 2, 3}, 0, []float64{1, 2, 3}},
		{"partial windows at the start", []float64{1, 2, 3, 4}, 3, []float64{1, 1.5, 2, 3}},
		{"window longer than the series", []float64{2, 4}, 10, []float64{2, 3}},
		{"NaN is skipped, not counted", []float64{1, nan, 3}, 2, []float64{1, 1, 3}},
		{"all NaN in the window", []float64{nan, nan, 4}, 2, []float64{nan, nan, 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := MovingMean(tc.xs, tc.window)
			if len(got) != len(tc.want) {
				t.Fatalf("len %d, want %d", len(got), len(tc.want))
			}
			for i := range got {
				if !same(got[i], tc.want[i]) {
					t.Fatalf("MovingMean(%v, %d) = %v, want %v", tc.xs, tc.window, got, tc.want)
				}
			}
		})
	}
}

func TestStepsToThreshold(t *testing.T) {
	for _, tc := range []struct {
		name      string
		xs        []float64
		threshold float64
		window    int
		want      float64
	}{
		{"first step, partial window", []float64{0.9, 0, 0}, 0.8, 5, 1},
		{"exactly the threshold counts", []float64{0.6, 0.8, 1.0}, 0.8, 2, 3},
		{"a rounded mean still reaches it", []float64{0.1, 0.7}, 0.4, 2, 2},
		{"just below does not", []float64{0.1, 0.69999}, 0.4, 2, inf},
		{"equal at step 2 with window 1", []float64{0.6, 0.8}, 0.8, 1, 2},
		{"the mean, not one step, must reach it", []float64{0, 0, 0, 1, 1, 1}, 0.8, 3, 6},
		{"dip after reaching does not matter", []float64{1, 0, 0}, 0.8, 1, 1},
		{"never", []float64{0.5, 0.7, 0.79}, 0.8, 1, inf},
		{"no steps", nil, 0.8, 5, inf},
		{"all null", []float64{nan, nan}, 0.8, 2, inf},
		{"null steps are skipped in the window", []float64{0.2, nan, 1, 1}, 0.8, 3, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := StepsToThreshold(tc.xs, tc.threshold, tc.window); got != tc.want {
				t.Errorf("StepsToThreshold(%v, %v, %d) = %v, want %v", tc.xs, tc.threshold, tc.window, got, tc.want)
			}
		})
	}
}

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		xs   []float64
		want float64
	}{
		{nil, nan},
		{[]float64{7}, 7},
		{[]float64{9, 3, 5}, 5},
		{[]float64{4, 10}, 7},
		{[]float64{20, 10, 30, 40}, 25},
		{[]float64{10, inf}, inf},
		{[]float64{10, 12, inf, inf}, inf},
		{[]float64{inf, 10, 12, 14}, 13},
		{[]float64{inf, 10, inf}, inf},
		{[]float64{inf, 10, 12}, 12},
		{[]float64{inf, inf}, inf},
	} {
		if got := Median(tc.xs); !same(got, tc.want) {
			t.Errorf("Median(%v) = %v, want %v", tc.xs, got, tc.want)
		}
	}
}

func TestRatio(t *testing.T) {
	for _, tc := range []struct{ a, b, want float64 }{
		{10, 20, 0.5}, {30, 10, 3}, {inf, 10, inf}, {10, inf, 0}, {inf, inf, nan}, {nan, 10, nan}, {10, nan, nan},
	} {
		if got := Ratio(tc.a, tc.b); !same(got, tc.want) {
			t.Errorf("Ratio(%v, %v) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestTable checks every column on runs whose answers are worked out by hand.
func TestTable(t *testing.T) {
	c := &Comparison{Task: "toolcall", Methods: []string{"grpo", "span"}, Threshold: 0.8, Window: 2}
	c.Runs = []*Run{
		// grpo: seed 1 reaches a at step 3 (mean(0.7, 0.9)), seed 2 never.
		runOf("grpo", 1, 4, map[string][]float64{
			"reward/a/mean": {0.5, 0.7, 0.9, 0.9}, "reward/b/mean": {1, 1, 1, 1},
			"eval/greedy/a": {nan, 0.5, nan, 0.7}, "eval/greedy/b": {nan, nan, nan, 1},
			"response/length": {10, 20, 30, 40}, "time/step": {1, 1, 1, 1}, "credit/overhead": {0, 0, 0, 0},
		}),
		runOf("grpo", 2, 4, map[string][]float64{
			"reward/a/mean": {0.1, 0.1, 0.1, 0.1}, "reward/b/mean": {1, 1, 1, 1},
			"eval/greedy/a": {nan, nan, nan, 0.3}, "eval/greedy/b": {nan, nan, nan, 1},
			"response/length": {50, 50, 50, 50}, "time/step": {3, 3, nan, 3}, "credit/overhead": {0, 0, 0, 0},
		}),
		// span: both seeds reach a (steps 2 and 4), seed 2 stopped after 4 of 6 steps
		// and has no evaluation; b never logged by seed 2.
		runOf("span", 1, 6, map[string][]float64{
			"reward/a/mean": {0.8, 0.8, 1}, "reward/b/mean": {0.2, 0.2, 0.2},
			"eval/greedy/a": {nan, nan, 0.9}, "eval/greedy/b": {nan, nan, 0.4},
			"response/length": {12, 12, 12}, "time/step": {2, 2, 2}, "credit/overhead": {0.1, 0.3, 0.2},
		}),
		runOf("span", 2, 6, map[string][]float64{
			"reward/a/mean": {0, 0.2, 0.9, 0.9}, "response/length": {8, 8, 8, 8}, "time/step": {4, 4, 4, 4},
		}),
	}
	rows := Table(c)
	// Both rewards are counted (no calibration), so each method's rows are
	// followed by its headline row, the mean over a and b.
	want := []Row{
		{Method: "grpo", Reward: "a", Runs: 2, StepsToThreshold: inf, Reached: 1, FinalEval: 0.5, FinalEvalStd: math.Sqrt(0.08), EvalRuns: 2,
			Length: 37.5, SecondsPerStep: 2, CreditOverhead: 0},
		{Method: "grpo", Reward: "b", Runs: 2, StepsToThreshold: 1, Reached: 2, FinalEval: 1, FinalEvalStd: 0, EvalRuns: 2,
			Length: 37.5, SecondsPerStep: 2, CreditOverhead: 0},
		// grpo's runs' means over a and b: evaluations (0.7+1)/2 and (0.3+1)/2.
		{Method: "grpo", Reward: HeadlineReward, Runs: 2, StepsToThreshold: nan, FinalEval: 0.75, FinalEvalStd: math.Sqrt(0.02), EvalRuns: 2,
			Length: 37.5, SecondsPerStep: 2, CreditOverhead: 0},
		{Method: "span", Reward: "a", Runs: 2, Incomplete: 2, StepsToThreshold: 2.5, Reached: 2, FinalEval: 0.9, FinalEvalStd: 0, EvalRuns: 1,
			Length: 10, SecondsPerStep: 3, CreditOverhead: 0.2},
		{Method: "span", Reward: "b", Runs: 2, Incomplete: 2, StepsToThreshold: inf, Reached: 0, FinalEval: 0.4, FinalEvalStd: 0, EvalRuns: 1,
			Length: 10, SecondsPerStep: 3, CreditOverhead: 0.2},
		// Only span's seed 1 has both rewards (seed 2 never logged b).
		{Method: "span", Reward: HeadlineReward, Runs: 2, Incomplete: 2, StepsToThreshold: nan, FinalEval: 0.65, FinalEvalStd: 0, EvalRuns: 1,
			Length: 10, SecondsPerStep: 3, CreditOverhead: 0.2},
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(rows), len(want))
	}
	for i, w := range want {
		g := rows[i]
		if g.Method != w.Method || g.Reward != w.Reward || g.Headline != (w.Reward == HeadlineReward) || g.Runs != w.Runs || g.Incomplete != w.Incomplete || g.Reached != w.Reached || g.EvalRuns != w.EvalRuns {
			t.Errorf("row %d: got %+v\nwant %+v", i, g, w)
		}
		for _, f := range []struct {
			name      string
			got, want float64
		}{
			{"steps", g.StepsToThreshold, w.StepsToThreshold}, {"eval", g.FinalEval, w.FinalEval}, {"eval std", g.FinalEvalStd, w.FinalEvalStd},
			{"length", g.Length, w.Length}, {"s/step", g.SecondsPerStep, w.SecondsPerStep}, {"overhead", g.CreditOverhead, w.CreditOverhead},
		} {
			if !same(f.got, f.want) {
				t.Errorf("row %d (%s/%s) %s = %v, want %v", i, g.Method, g.Reward, f.name, f.got, f.want)
			}
		}
	}
	// Ratios against grpo: a: 2.5/∞ = 0 (only span reached), b: ∞/1 = ∞.
	if r := rows[3].VsBaseline["grpo"]; r != 0 {
		t.Errorf("span/a ÷ grpo = %v, want 0", r)
	}
	if r := rows[4].VsBaseline["grpo"]; !math.IsInf(r, 1) {
		t.Errorf("span/b ÷ grpo = %v, want +Inf", r)
	}
	if r := rows[1].VsBaseline["grpo"]; r != 1 {
		t.Errorf("grpo/b ÷ grpo = %v, want 1", r)
	}
	if _, ok := rows[0].VsBaseline["gdpo"]; ok {
		t.Error("a ratio against gdpo, which is not in the comparison")
	}

	// AUC: the mean of each seed's mean reward over its steps. span/a: seed
	// 1 (0.8+0.8+1)/3, seed 2 (0+0.2+0.9+0.9)/4; grpo/a: 0.75 and 0.1. The
	// paired differences are d = 2.6/3 − 0.75 = 0.1167 and 0.4 (one warm-up:
	// the unit is the run, n = 2). Worked by hand for the Student-t interval
	// (this test pinned the percentile bootstrap's [0.117, 0.400] before
	// issue 28 replaced it): mean 0.25833, s/√n = |d₁ − d₂|/2 = 0.14167,
	// t_{0.975,1} = tan(0.475π) = 12.7062, so the interval is
	// 0.25833 ± 1.80005 = [−1.54171, +2.05838], and it includes 0; the
	// t-test's p = 1 − (2/π)·atan(0.25833/0.14167) = 0.31933; the sign-flip
	// p is 2/4 (both differences positive: the observed pattern and its
	// mirror are the most extreme of the 4). Headline rows pair the runs'
	// means over a and b: grpo 0.875 and 0.55 (AUC 0.7125), span only seed 1,
	// (2.6/3 + 0.2)/2 = 0.5333, one unit: no interval.
	for _, c := range []struct {
		row            int
		auc, dlt       float64
		n              int
		lo, hi, pt, ps float64
	}{
		{0, 0.425, nan, 0, nan, nan, nan, nan},
		{2, 0.7125, nan, 0, nan, nan, nan, nan},
		{3, (2.6/3 + 0.5) / 2, (2.6/3 - 0.75 + 0.4) / 2, 2, -1.5417123376247486, 2.058379004291415, 0.3193310587965338, 0.5},
		{5, (2.6/3 + 0.2) / 2, (2.6/3+0.2)/2 - 0.875, 1, nan, nan, nan, 1},
	} {
		r := rows[c.row]
		if !near(r.AUC, c.auc) {
			t.Errorf("row %d AUC %v, want %v", c.row, r.AUC, c.auc)
		}
		d, ok := r.DeltaAUC["grpo"]
		if c.n == 0 { // grpo against itself: a zero-unit comparison no cell shows
			if ok && d.N != 0 && r.Method != "grpo" {
				t.Errorf("row %d ΔAUC %+v", c.row, d)
			}
			continue
		}
		if d.Unit != "run" || d.N != c.n || !near(d.Mean, c.dlt) || !sameNear(d.Lo, c.lo) || !sameNear(d.Hi, c.hi) || !sameNear(d.PT, c.pt) || !sameNear(d.Sign.P, c.ps) || r.Marked["grpo"] {
			t.Errorf("row %d ΔAUC vs grpo %+v, want n %d mean %v [%v, %v] p_t %v sign-flip p %v, unmarked", c.row, d, c.n, c.dlt, c.lo, c.hi, c.pt, c.ps)
		}
	}
	// Families: the headline rows' one comparison has a single unit, so
	// m = 0 there; per reward, only span/a − grpo has two: m = 1.
	if n := len(familyTests(rows, FamilyHeadline)); n != 0 {
		t.Errorf("headline family of %d tests, want 0", n)
	}
	if ts := familyTests(rows, FamilyReward); len(ts) != 1 || ts[0].row != 3 {
		t.Errorf("per-reward family %v, want span/a − grpo only", ts)
	}
	md := Markdown(rows)
	for _, s := range []string{
		"| method | reward | start | AUC | ΔAUC vs grpo [95% CI] sign-flip p, t-test pt | steps to 0.80 | steps ÷ grpo | final eval (greedy) | mean \\|A\\| | s/step | credit overhead |",
		"| grpo | a | — | 0.425 | — | not reached (1/2) | — | 0.500 ± 0.283 | — | 2.00 | 0.0% |",
		"| grpo | b | — | 1.000 | — | 1 (2/2) | — | 1.000 ± 0.000 | — | 2.00 | 0.0% |",
		"| grpo | mean of 2 counted | — | 0.713 | — | — | — | 0.750 ± 0.141 | — | 2.00 | 0.0% |",
		"| span† | a | — | 0.683 | +0.258 [-1.542, +2.058] p=0.5 pt=0.319 | 2.5 (2/2) | only this | 0.900 (1/2) | — | 3.00 | 20.0% |", // 2.5 ÷ ∞: words, not 0.00× (issue 49)
		"| span† | b | — | 0.200 | -0.800 | not reached (0/2) | not reached | 0.400 (1/2) |",                                          // ∞ ÷ 1: not ∞
		"| span† | mean of 2 counted | — | 0.533 | -0.342 | — | — | 0.650 (1/2) |",
		"headline, m = 0; per reward, m = 1 (span − grpo) on each of a, b.",
		"| grpo | 2 | 37.5 | — | — |",
		"| span | 2 | 10.0 | 0.27× | — |",
		"†: some runs stopped",
	} {
		if !strings.Contains(md, s) {
			t.Errorf("Markdown lacks %q:\n%s", s, md)
		}
	}
	txt := Text(rows)
	lines := strings.Split(strings.TrimSpace(txt), "\n")
	if !strings.HasPrefix(lines[0], "method  reward  start  AUC    ΔAUC vs grpo    steps to 0.80") || !strings.Contains(txt, "+0.258 ± 1.800") || !strings.Contains(txt, "span†   b       —      0.200  -0.800          not reached") {
		t.Errorf("Text:\n%s", txt)
	}
	// Aligned: the reward column starts at the same rune offset on every row.
	col := strings.Index(lines[0], "reward")
	for _, l := range lines[1:7] {
		if r := []rune(l); len(r) <= col || r[col-1] != ' ' || r[col] == ' ' {
			t.Errorf("column not aligned at %d: %q", col, l)
		}
	}
}

// sameNear is near, with NaN equal to NaN.
func sameNear(a, b float64) bool { return math.IsNaN(a) && math.IsNaN(b) || near(a, b) }

// TestTableNoData: a method with no runs and a reward nobody logged give
// dashes, not zeros or panics.
func TestTableNoData(t *testing.T) {
	c := &Comparison{Methods: []string{"gdpo", "p2t"}, Threshold: 0.8, Window: 5,
		Runs: []*Run{runOf("gdpo", 1, 2, map[string][]float64{"reward/a/mean": {0.1, nan}})}}
	rows := Table(c)
	if len(rows) != 2 {
		t.Fatalf("%d rows, want 2", len(rows))
	}
	if !math.IsInf(rows[0].StepsToThreshold, 1) || !math.IsNaN(rows[0].FinalEval) || !math.IsNaN(rows[0].Length) {
		t.Errorf("gdpo row %+v", rows[0])
	}
	if rows[1].Runs != 0 || !math.IsNaN(rows[1].StepsToThreshold) || !math.IsNaN(rows[1].VsBaseline["gdpo"]) {
		t.Errorf("p2t row %+v", rows[1])
	}
	md := Markdown(rows)
	if !strings.Contains(md, "| p2t | a | — | — | — | — | — | — | — | — | — |") || !strings.Contains(md, "| gdpo | a | — | 0.100 | — | not reached (0/1) | — |") {
		t.Errorf("Markdown:\n%s", md)
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// TestCalibratedTable: with a calibration, a reward's threshold is half its
// gap from the start, rewards the calibration did not count are marked
// and listed with the reason, and the warm-up's evaluation is shown.
func TestCalibratedTable(t *testing.T) {
	c := &Comparison{Methods: []string{"gdpo"}, Threshold: 0.8, Window: 1,
		Calibration: &run.Calibration{
			Rewards: []run.RewardStart{{Reward: "a", Pass: 0.4, Counted: true}, {Reward: "b", Pass: 0.9, Why: "already at 0.90"}},
			Eval:    map[string]float64{"a": 0.25},
		},
		Runs: []*Run{runOf("gdpo", 1, 3, map[string][]float64{
			"reward/a/mean": {0.4, 0.6, 0.7}, "reward/b/mean": {0.9, 0.9, 1}, "eval/greedy/a": {nan, nan, 0.5},
		})}}
	rows := Table(c)
	if r := rows[0]; !r.Counted || r.Start != 0.4 || !near(r.Threshold, 0.7) || r.StepsToThreshold != 3 || r.StartEval != 0.25 {
		t.Errorf("reward a: %+v", r)
	}
	if r := rows[1]; r.Counted || r.Why == "" || !near(r.Threshold, 0.95) {
		t.Errorf("reward b: %+v", r)
	}
	md := Markdown(rows)
	for _, want := range []string{"steps to ½ gap", "| gdpo | a | 0.40 | 0.567 |", "| 0.500 (0.250) |", "| gdpo | b (not counted) |", "Not counted (the verdict leaves them out): b: already at 0.90."} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md)
		}
	}
}
