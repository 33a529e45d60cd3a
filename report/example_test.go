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

// ExampleTable compares two methods over two seeds: GDPO's moving mean
// (window 2) reaches 0.8 at steps 4 and 5 (median 4.5); span reaches it at
// step 3 on one seed and never on the other, so its median is "not
// reached".
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
	// | method | reward | steps to 0.80 | final eval (greedy) | length | s/step | credit overhead | steps ÷ gdpo |
	// | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |
	// | gdpo | call | 4.5 (2/2) | — | 40.0 | 2.00 | 5.0% | 1.00 |
	// | span | call | not reached (1/2) | — | 40.0 | 2.00 | 5.0% | ∞ |
	//
	// steps to 0.80: median over seeds of the first step at which the moving mean of the training reward over 2 steps reaches 0.80; (r/n): seeds that reached it.
	// final eval: mean ± std over seeds of the last greedy evaluation; length: mean response tokens; credit overhead: credit seconds over step seconds.
	// steps ÷ baseline: this method's steps to threshold over the baseline's; ∞: only the baseline reached it; 0: only this method did.
}
