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
// a mean of −0.04 with an interval that spans 0, so two seeds cannot tell
// them apart. Steps to 0.8 (moving mean over 2 steps): GDPO at steps 4 and
// 5, span at step 3 on one seed and never on the other.
func ExampleTable() {
	c := &report.Comparison{Task: "toolcall", Methods: []string{"gdpo", "span"}, Threshold: 0.8, Window: 2,
		Runs: []*report.Run{
			{Method: "gdpo", Seed: 1, Steps: 5, Metrics: steps(0.2, 0.5, 0.7, 0.9, 0.9)},
			{Method: "gdpo", Seed: 2, Steps: 5, Metrics: steps(0.2, 0.4, 0.6, 0.7, 0.9)},
			{Method: "span", Seed: 1, Steps: 5, Metrics: steps(0.5, 0.8, 0.9, 0.9, 1)},
			{Method: "span", Seed: 2, Steps: 5, Metrics: steps(0.1, 0.2, 0.3, 0.4, 0.5)},
		}}
	fmt.Print(report.Markdown(report.Table(c)))
	// Output:
	// | method | reward | start | AUC | ΔAUC vs gdpo [95% CI] | steps to 0.80 | final eval (greedy) | Δ final vs gdpo [95% CI] | mean \|A\| | s/step | credit overhead |
	// | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
	// | gdpo | call | — | 0.600 | — | 4.5 (2/2) | — | — | — | 2.00 | 5.0% |
	// | span | call | — | 0.560 | -0.040 [-0.260, +0.180] | not reached (1/2) | — | — | — | 2.00 | 5.0% |
	//
	// AUC: mean over seeds of the area under the training reward's curve per step (the mean of the per-step batch means): larger is learned sooner; start: the warm-up's pass rate when sampled as training samples.
	// Δ … [95% CI]: mean over seeds of this method's value minus the baseline's with the same seed (same prompts, same warm-up), with a paired bootstrap 95% interval; * marks an interval that excludes 0.
	// steps to 0.80: median over seeds of the first step at which the moving mean of the training reward over 2 steps reaches 0.80; (r/n): seeds that reached it.
	// final eval: mean ± std over seeds of the last greedy evaluation (in brackets: the warm-up's); mean |A|: mean over steps of the batch's mean |advantage| over response tokens; credit overhead: credit seconds over step seconds.
}
