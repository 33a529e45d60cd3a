package report_test

import (
	"fmt"

	"github.com/credo-rl/credo/report"
)

// steps turns per-step rewards into metrics lines.
func steps(rewards ...float64) []report.Step {
	var out []report.Step
	for s, r := range rewards {
		out = append(out, report.Step{"step": float64(s), "reward/call/mean": r, "response/length": 40, "time/step": 2, "credit/overhead": 0.05})
	}
	return out
}

// ExampleTable compares two methods over two seeds. AUC is the mean of
// each seed's per-step rewards, averaged over seeds: GDPO 0.64 and 0.56,
// span 0.82 and 0.30. Paired by seed, span is +0.18 and −0.26 against GDPO:
// a mean of −0.04, and the Student-t 95% interval over the two paired runs
// is −0.04 ± t_{0.975,1}·|0.18 + 0.26|/2 = −0.04 ± 12.706·0.22 = ±2.795, far
// across 0: two seeds cannot tell them apart. Steps to 0.8 (moving mean
// over 2 steps): GDPO at steps 4 and 5, span at step 3 on one seed and
// never on the other. Text is the terminal's narrow table; Markdown has
// the interval's bounds and the sign-flip p-value.
func ExampleTable() {
	c := &report.Comparison{Task: "toolcall", Methods: []string{"gdpo", "span"}, Threshold: 0.8, Window: 2,
		Runs: []*report.Run{
			{Method: "gdpo", Seed: 1, Steps: 5, Metrics: steps(0.2, 0.5, 0.7, 0.9, 0.9)},
			{Method: "gdpo", Seed: 2, Steps: 5, Metrics: steps(0.2, 0.4, 0.6, 0.7, 0.9)},
			{Method: "span", Seed: 1, Steps: 5, Metrics: steps(0.5, 0.8, 0.9, 0.9, 1)},
			{Method: "span", Seed: 2, Steps: 5, Metrics: steps(0.1, 0.2, 0.3, 0.4, 0.5)},
		}}
	fmt.Print(report.Text(report.Table(c)))
	// Output:
	// method  reward  start  AUC    ΔAUC vs gdpo    steps to 0.80  final eval
	// gdpo    call    —      0.600  —               4.5            —
	// span    call    —      0.560  -0.040 ± 2.795  not reached    —
	//
	// start: the warm-up's pass rate; AUC: mean training reward over the run (higher: learned sooner).
	// ΔAUC: paired difference from the baseline (same prompts, same warm-up), ± the half-width of its
	// Student-t 95% interval over 2 seeds; * marked after Holm's correction (headline m = 1).
	// final eval: greedy, on the test prompts.
	//
	// What the runs show: on call, the mean training reward over the run (AUC) ranged from 0.560 (span) to
	// 0.600 (gdpo).
	// No headline difference is marked after Holm's correction (m = 1): these runs do not separate the
	// methods (one warm-up: the intervals cover RL-seed noise only).
}
