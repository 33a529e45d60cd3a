package report

import (
	"fmt"
	"math"
	"strconv"

	"github.com/credo-rl/credo/internal/stats"
)

// methodCell is the method, with † when some of its runs stopped early.
func methodCell(r Row) string {
	if r.Incomplete > 0 {
		return r.Method + "†"
	}
	return r.Method
}

// rewardCell is the reward, "mean of N counted" for a headline row
// ("mean of own counted" under run.HeadlineOwn), and
// notCounted appended for a reward the verdict leaves out.
func rewardCell(r Row, notCounted string) string {
	switch {
	case r.Headline && r.Own != nil:
		return "mean of own counted"
	case r.Headline:
		return fmt.Sprintf("mean of %d counted", len(r.Rewards))
	case !r.Counted:
		return r.Reward + notCounted
	}
	return r.Reward
}

// deltaCell is the row's paired difference from baseline b: with two or
// more units "+0.031 [+0.012, +0.050] p=0.0625 pt=0.0123" (the Student-t
// 95% interval, the sign-flip p-value and the t-test's, which Holm's
// correction marks by), with one the bare "+0.031"; * when marked. "—"
// where there is none (the baseline's own row, no paired run).
func deltaCell(r Row, d map[string]stats.Paired, b string, marked bool) string {
	p, ok := d[b]
	if !ok || r.Method == b || math.IsNaN(p.Mean) {
		return "—"
	}
	s := signed(p.Mean, 3)
	if p.N >= 2 && !math.IsNaN(p.Lo) {
		s += " [" + signed(p.Lo, 3) + ", " + signed(p.Hi, 3) + "] " + pValue(p.Sign) + " " + tValue(p.PT)
	}
	if marked {
		s += "*"
	}
	return s
}

// narrowDelta is deltaCell for the terminal: "+0.031 ± 0.019*" (the
// t-interval is symmetric: ± its half-width; "+0.031±0.019*" when not
// spaced), the bare difference with one unit.
func narrowDelta(r Row, b string, spaced bool) string {
	p, ok := r.DeltaAUC[b]
	if !ok || r.Method == b || math.IsNaN(p.Mean) {
		return "—"
	}
	s := signed(p.Mean, 3)
	pm := "±"
	if spaced {
		pm = " ± "
	}
	if half := (p.Hi - p.Lo) / 2; p.N >= 2 && !math.IsNaN(half) {
		if half < 0.0005 { // not "± 0.000", which reads as no interval
			s += pm + "<0.001"
		} else {
			s += pm + num(half, 3)
		}
	}
	if r.Marked[b] {
		s += "*"
	}
	return s
}

// pValue is "p=0.0625", or "p≈0.0312" for a Monte Carlo estimate.
func pValue(s stats.Permutation) string {
	if math.IsNaN(s.P) {
		return "p —"
	}
	eq := "="
	if !s.Exact {
		eq = "≈"
	}
	return "p" + eq + strconv.FormatFloat(s.P, 'g', 3, 64)
}

// tValue is "pt=0.0123", the t-test's p-value (the test the interval
// inverts), so a reader can redo Holm's correction from the table.
func tValue(p float64) string {
	if math.IsNaN(p) {
		return "pt —"
	}
	return "pt=" + strconv.FormatFloat(p, 'g', 3, 64)
}

// warmupCell is "sd 0.004, 3/3": the spread of the per-warm-up mean
// differences and on how many warm-ups the sign is the mean's.
func warmupCell(r Row, b string) string {
	p, ok := r.DeltaAUC[b]
	if !ok || r.Method == b || p.Warmups < 2 || math.IsNaN(p.Mean) {
		return "—"
	}
	agree := 0
	for _, m := range p.WarmupMeans {
		if m*p.Mean > 0 {
			agree++
		}
	}
	return fmt.Sprintf("sd %s, %d/%d", num(p.WarmupSpread, 3), agree, p.Warmups)
}

// stepsCell is the median steps to threshold, with (reached/runs): always
// in the full table, in the narrow one only beside a number some run did
// not reach.
func stepsCell(r Row, full bool) string {
	seeds := ""
	if full || r.Runs > 1 && r.Reached < r.Runs {
		seeds = fmt.Sprintf(" (%d/%d)", r.Reached, r.Runs)
	}
	switch {
	case math.IsNaN(r.StepsToThreshold):
		return "—"
	case math.IsInf(r.StepsToThreshold, 1) && !full:
		return "not reached" // by half the runs or more
	case math.IsInf(r.StepsToThreshold, 1):
		return "not reached" + seeds
	}
	return num(r.StepsToThreshold, -1) + seeds
}

// ratioCell is the row's steps over baseline b's, "—" on b's own row.
func ratioCell(r Row, b string) string {
	if r.Method == b {
		return "—"
	}
	return stepsRatioText(r.VsBaseline[b])
}

// stepsRatioText is a steps ratio in words where one side never reached
// the threshold (issue 49: "0.00×" and "∞" read as a broken table when a
// demo's one seed left a reward behind): "0.68×"; "only this" when only
// this method reached it (0), "not reached" when only the baseline did
// (+Inf), "—" when neither did (NaN).
func stepsRatioText(v float64) string {
	switch {
	case v == 0:
		return "only this"
	case math.IsInf(v, 1):
		return "not reached"
	}
	return ratioText(v)
}

// ratioText is "0.68×", "∞" or "—".
func ratioText(v float64) string {
	switch {
	case math.IsNaN(v):
		return "—"
	case math.IsInf(v, 1):
		return "∞"
	}
	return num(v, 2) + "×"
}

// evalCell is the final evaluation: the mean, in the full table ± the std
// over two or more runs, (k/n) when only k runs have one, and the warm-up's
// in brackets.
func evalCell(r Row, full bool) string {
	if r.EvalRuns == 0 || math.IsNaN(r.FinalEval) {
		return "—"
	}
	s := num(r.FinalEval, 3)
	if full && r.EvalRuns > 1 {
		s += " ± " + num(r.FinalEvalStd, 3)
	}
	if r.EvalRuns < r.Runs {
		s += fmt.Sprintf(" (%d/%d)", r.EvalRuns, r.Runs)
	}
	if !math.IsNaN(r.StartEval) {
		s += " (" + num(r.StartEval, 3) + ")"
	}
	return s
}

func signed(v float64, prec int) string {
	if v >= 0 {
		return "+" + num(v, prec)
	}
	return num(v, prec)
}

func percent(v float64) string {
	if math.IsNaN(v) {
		return "—"
	}
	return num(100*v, 1) + "%"
}

// num formats v with prec decimals (prec < 0: as few as needed), "—" for NaN.
func num(v float64, prec int) string {
	if math.IsNaN(v) {
		return "—"
	}
	if math.IsInf(v, 1) {
		return "∞"
	}
	if math.IsInf(v, -1) {
		return "-∞"
	}
	return strconv.FormatFloat(v, 'f', prec, 64)
}
