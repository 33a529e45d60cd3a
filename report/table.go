package report

import (
	"math"
	"slices"

	"github.com/credo-rl/credo/internal/stats"
	"github.com/credo-rl/credo/run"
)

// Row is one (method, reward) line of the comparison table, or a
// method's headline line (Headline: its mean over the counted rewards). A
// value that no run logged is NaN.
type Row struct {
	Method, Reward string
	// Headline marks the method's mean over the counted rewards: each
	// run's AUC (and final evaluation) averaged over the rewards the
	// calibration counts (Rewards lists them), then paired. It has no
	// steps to threshold. Reward is HeadlineReward.
	Headline bool
	Rewards  []string
	// Own, on a headline row of a comparison whose headline follows
	// run.HeadlineOwn, maps each warm-up to the rewards its calibration
	// counts, which that warm-up's runs average (Rewards is their union);
	// nil otherwise.
	Own        map[int][]string
	Runs       int // runs (seeds) of the method
	Incomplete int // of them, runs that logged fewer steps than configured
	Threshold  float64
	Window     int
	// StepsToThreshold is the median over seeds of each seed's
	// StepsToThreshold; a seed that never reaches the threshold counts as
	// +Inf, so the median is +Inf when half or more never do.
	StepsToThreshold float64
	Reached          int // seeds that reached the threshold
	// FinalEval and FinalEvalStd are the mean and unbiased std over seeds
	// of each run's last eval/greedy/<reward>; EvalRuns counts the runs
	// that have one.
	FinalEval, FinalEvalStd float64
	EvalRuns                int
	// Length, SecondsPerStep and CreditOverhead are means over runs of
	// each run's mean over steps of response/length, time/step and
	// credit/overhead (per method: the same on each of its rewards).
	Length, SecondsPerStep, CreditOverhead float64
	// Retention is the method's regressions on test prompts while another
	// reward rose, pooled over its runs' evals.jsonl (the same on each of
	// its rows).
	Retention Retention
	// Baselines are the comparison's baselines in column order
	// (Comparison.Baselines); VsBaseline maps each of them in the table to
	// this row's StepsToThreshold divided by the baseline's on the same
	// reward (see Ratio).
	Baselines  []string
	VsBaseline map[string]float64

	// Counted says the comparison judges methods on this reward (its
	// calibration counted it); Why says why not. Without a calibration
	// every reward is counted.
	Counted bool
	Why     string
	// Start is the warm-up's pass rate on the reward (calibration; NaN
	// without one). With it, Threshold is start + ½(1 − start): half the
	// gap to a perfect score.
	Start float64
	// StartEval is the warm-up's greedy evaluation on the test prompts the
	// runs end on (NaN without a calibration).
	StartEval float64
	// AUC is the mean over runs of each run's area under its training
	// reward curve per step (stats.AUC): the primary metric, since a
	// method that learns sooner has the larger area. AUCs and Evals hold
	// each run's AUC and final greedy evaluation by its Unit, for pairing.
	AUC         float64
	AUCs, Evals map[Unit]float64
	// DeltaAUC and DeltaEval map each baseline to the paired comparison
	// (stats.Compare) of this row's AUC (final evaluation) minus the
	// baseline's over the units both ran: with several warm-ups each
	// warm-up's mean difference is a unit, with one each run (seed).
	DeltaAUC, DeltaEval map[string]stats.Paired
	// Family is the Holm family of the row's ΔAUC cells (FamilyHeadline,
	// FamilyReward; "" for a reward the verdict does not count). Marked[b]
	// says DeltaAUC[b] passed Holm's correction at 0.05 within it, and
	// Adjusted[b] is its Holm-adjusted t-test p-value.
	Family   string
	Marked   map[string]bool
	Adjusted map[string]float64
	// AbsAdv is the mean over runs and steps of the batch's mean |A| over
	// response tokens (adv/abs_mean): the step size the method trained at.
	AbsAdv float64
}

// HeadlineReward is the reward column of a headline row.
const HeadlineReward = "mean"

// methodStats are the figures every row of a method shares.
type methodStats struct {
	runs                      []*Run
	length, sps, over, absAdv float64
	incomplete                int
	retention                 Retention
}

func statsOf(runs []*Run) methodStats {
	m := methodStats{runs: runs, length: perRun(runs, run.KeyResponseLength), sps: perRun(runs, run.KeyTimeStep),
		over: perRun(runs, run.KeyCreditOverhead), absAdv: perRun(runs, run.KeyAbsAdvantage), retention: methodRetention(runs)}
	for _, r := range runs {
		if r.Incomplete {
			m.incomplete++
		}
	}
	return m
}

// Table computes one Row per (method, reward), in method order then
// reward order, each method's rows followed by its headline row when two
// or more rewards are counted; then each row's paired differences against
// each baseline (on the same reward, or headline against headline) and
// their Holm marks (markFamilies).
func Table(c *Comparison) []Row {
	var rows []Row
	rewards := c.Rewards()
	for _, m := range c.Methods {
		ms := statsOf(c.MethodRuns(m))
		var all, counted []Row
		for _, k := range rewards {
			row := c.rewardRow(m, k, ms)
			rows, all = append(rows, row), append(all, row)
			if row.Counted {
				counted = append(counted, row)
			}
		}
		switch own := c.ownCounted(); {
		case own != nil:
			if h, ok := ownHeadlineRow(all, own, c.Calibrations, ms); ok {
				rows = append(rows, h)
			}
		case len(counted) >= 2:
			rows = append(rows, headlineRow(counted, ms))
		}
	}
	unit := c.unit()
	for i := range rows {
		rows[i].Baselines = c.baselines()
		for _, b := range rows[i].Baselines {
			j := slices.IndexFunc(rows, func(r Row) bool {
				return r.Method == b && r.Reward == rows[i].Reward && r.Headline == rows[i].Headline
			})
			if j < 0 {
				continue
			}
			if rows[i].VsBaseline == nil {
				rows[i].VsBaseline = map[string]float64{}
				rows[i].DeltaAUC = map[string]stats.Paired{}
				rows[i].DeltaEval = map[string]stats.Paired{}
			}
			rows[i].VsBaseline[b] = Ratio(rows[i].StepsToThreshold, rows[j].StepsToThreshold)
			rows[i].DeltaAUC[b] = paired(rows[i].AUCs, rows[j].AUCs, unit)
			rows[i].DeltaEval[b] = paired(rows[i].Evals, rows[j].Evals, unit)
		}
	}
	markFamilies(rows)
	return rows
}

// rewardRow is method m's row on reward k.
func (c *Comparison) rewardRow(m, k string, ms methodStats) Row {
	row := Row{Method: m, Reward: k, Runs: len(ms.runs), Incomplete: ms.incomplete,
		Threshold: c.Threshold, Window: c.Window, Length: ms.length, SecondsPerStep: ms.sps, CreditOverhead: ms.over,
		Retention: ms.retention, Counted: true, Start: math.NaN(), StartEval: math.NaN(), AbsAdv: ms.absAdv,
		AUCs: map[Unit]float64{}, Evals: map[Unit]float64{}}
	if cal := c.Calibration; cal != nil {
		if st, ok := c.start(k); ok {
			row.Start, row.Counted, row.Why = st.Pass, st.Counted, st.Why
			row.Threshold = st.Pass + (1-st.Pass)/2
		}
		if e, ok := cal.Eval[k]; ok {
			row.StartEval = e
		}
	}
	steps := make([]float64, len(ms.runs))
	var evals, aucs []float64
	for i, r := range ms.runs {
		curve := r.Series(run.RewardKey(k, "mean"))
		steps[i] = StepsToThreshold(curve, c.threshold(r, k, row.Threshold), c.Window)
		if !math.IsInf(steps[i], 1) {
			row.Reached++
		}
		if a := stats.AUC(curve); !math.IsNaN(a) {
			row.AUCs[r.Unit()] = a
			aucs = append(aucs, a)
		}
		if e, ok := last(r.Series(run.EvalKey("greedy", k))); ok {
			evals = append(evals, e)
			row.Evals[r.Unit()] = e
		}
	}
	row.StepsToThreshold = Median(steps)
	row.EvalRuns = len(evals)
	row.FinalEval, row.FinalEvalStd = stats.MeanStd(evals)
	row.AUC = stats.Mean(aucs)
	return row
}

// headlineRow is a method's mean over its counted rows: per unit, the
// mean of the rows' AUCs (final evaluations), where every counted reward
// has one; start and the warm-up's evaluation are the rows' means.
func headlineRow(counted []Row, ms methodStats) Row {
	var starts, startEvals []float64
	var names []string
	for _, r := range counted {
		names = append(names, r.Reward)
		starts, startEvals = append(starts, r.Start), append(startEvals, r.StartEval)
	}
	row := newHeadline(counted, func(Unit) []string { return names }, ms)
	row.Rewards = names
	row.Start, row.StartEval = meanAll(starts), meanAll(startEvals)
	return row
}

// newHeadline is a method's headline row over its reward rows: each unit's
// AUC (final evaluation) is the mean over the rewards counted(unit) names,
// where the unit has a value for each of them; Rewards, Start and
// StartEval are left for the caller.
func newHeadline(rows []Row, counted func(Unit) []string, ms methodStats) Row {
	first := rows[0]
	row := Row{Method: first.Method, Reward: HeadlineReward, Headline: true, Runs: first.Runs, Incomplete: first.Incomplete,
		Threshold: math.NaN(), Window: first.Window, StepsToThreshold: math.NaN(), Length: ms.length, SecondsPerStep: ms.sps,
		CreditOverhead: ms.over, Retention: ms.retention, Counted: true, AbsAdv: ms.absAdv,
		AUCs:  meanOver(rows, counted, func(r Row) map[Unit]float64 { return r.AUCs }),
		Evals: meanOver(rows, counted, func(r Row) map[Unit]float64 { return r.Evals })}
	row.AUC = stats.Mean(sortedValues(row.AUCs))
	evals := sortedValues(row.Evals)
	row.EvalRuns = len(evals)
	row.FinalEval, row.FinalEvalStd = stats.MeanStd(evals)
	return row
}

// meanAll is the mean of xs, NaN when any is NaN (a mean over some of the
// counted rewards would not be the headline's).
func meanAll(xs []float64) float64 {
	if slices.ContainsFunc(xs, math.IsNaN) {
		return math.NaN()
	}
	return stats.Mean(xs)
}

// meanOver is, for each unit, the mean of the rows' values there over the
// rewards counted(unit) names, when it has a value for each of them (and
// they are not none).
func meanOver(rows []Row, counted func(Unit) []string, of func(Row) map[Unit]float64) map[Unit]float64 {
	out := map[Unit]float64{}
	for u := range of(rows[0]) {
		names := counted(u)
		sum, n := 0.0, 0
		for _, r := range rows {
			if !slices.Contains(names, r.Reward) {
				continue
			}
			if v, ok := of(r)[u]; ok {
				sum, n = sum+v, n+1
			}
		}
		if n > 0 && n == len(names) {
			out[u] = sum / float64(n)
		}
	}
	return out
}

// Unit is what a comparison pairs runs by: the warm-up they start from
// (0 with one) and their seed. Runs of two methods with the same Unit saw
// the same prompts from the same checkpoint.
type Unit struct {
	Warmup int
	Seed   uint64
}

// Unit is the run's pairing unit.
func (r *Run) Unit() Unit { return Unit{r.Warmup, r.Seed} }

// threshold is reward k's threshold for run r: half the gap from its own
// warm-up's start when that warm-up was calibrated, else def.
func (c *Comparison) threshold(r *Run, k string, def float64) float64 {
	if cal, ok := c.Calibrations[r.Warmup]; ok {
		if p, ok := cal.Start(k); ok {
			return p + (1-p)/2
		}
	}
	return def
}

// MovingMean is the trailing moving mean of xs over window steps:
// out[s] averages the values of xs[max(0, s−window+1)..s] that are not
// NaN (NaN when all are). A window below 1 counts as 1.
func MovingMean(xs []float64, window int) []float64 {
	window = max(window, 1)
	out := make([]float64, len(xs))
	for s := range xs {
		sum, n := 0.0, 0
		for _, x := range xs[max(0, s-window+1) : s+1] {
			if !math.IsNaN(x) {
				sum, n = sum+x, n+1
			}
		}
		out[s] = math.NaN()
		if n > 0 {
			out[s] = sum / float64(n)
		}
	}
	return out
}

// StepsToThreshold is the number of steps (index s + 1) after which the
// trailing moving mean of xs first reaches threshold, or +Inf if it never
// does. "Reaches" is m ≥ threshold − 1e-9, so rounding in the mean (0.1
// and 0.7 average to 0.39999999999999997) does not hide an exact hit.
func StepsToThreshold(xs []float64, threshold float64, window int) float64 {
	for s, m := range MovingMean(xs, window) {
		if m >= threshold-1e-9 {
			return float64(s + 1)
		}
	}
	return math.Inf(1)
}

// Median of xs, +Inf values included (they sort last); with an even count
// the mean of the two middle values, so a middle +Inf makes it +Inf. NaN
// for no values.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// Ratio is a/b for steps-to-threshold values: +Inf when only a is +Inf
// (this method never got there, the baseline did), 0 when only b is,
// NaN when both are or either is NaN.
func Ratio(a, b float64) float64 {
	switch {
	case math.IsNaN(a) || math.IsNaN(b) || math.IsInf(a, 1) && math.IsInf(b, 1):
		return math.NaN()
	case math.IsInf(b, 1):
		return 0
	case math.IsInf(a, 1):
		return math.Inf(1)
	}
	return a / b
}

// perRun is the mean over runs of each run's mean of key over its steps;
// runs that never logged key are left out (NaN when none did).
func perRun(runs []*Run, key string) float64 {
	var ms []float64
	for _, r := range runs {
		if m, ok := mean(r.Series(key)); ok {
			ms = append(ms, m)
		}
	}
	m, _ := stats.MeanStd(ms)
	return m
}

// mean of the values of xs that are not NaN.
func mean(xs []float64) (float64, bool) {
	sum, n := 0.0, 0
	for _, x := range xs {
		if !math.IsNaN(x) {
			sum, n = sum+x, n+1
		}
	}
	if n == 0 {
		return math.NaN(), false
	}
	return sum / float64(n), true
}

// last is the last value of xs that is not NaN.
func last(xs []float64) (float64, bool) {
	for i := len(xs) - 1; i >= 0; i-- {
		if !math.IsNaN(xs[i]) {
			return xs[i], true
		}
	}
	return math.NaN(), false
}
