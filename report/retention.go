package report

import (
	"fmt"
	"math"
	"sort"

	"github.com/credo-rl/credo/run"
)

// passMark is the score at which a test prompt passes a reward: full
// marks. The tasks' rewards score 0 or 1 (a partial score is not a pass),
// and 1e-9 absorbs rounding in a verifier's arithmetic.
const passMark = 1 - 1e-9

// Retention counts how often a reward that passed on a test prompt fails
// there at the next evaluation while another reward is being learned: the
// claim that token-level credit keeps what is right while it fixes what
// is wrong. Over consecutive evaluations e → e+1 of a run (evals.jsonl) and
// each reward k for which some other reward's mean over the test prompts
// rose from e to e+1,
//
//	Passed    = #{prompts i : score_k(i, e) ≥ passMark}
//	Regressed = #{prompts i : score_k(i, e) ≥ passMark, score_k(i, e+1) < passMark}
//
// summed over such (interval, reward) pairs and over runs; prompts a
// reward does not apply to at either evaluation are left out. Every
// reward is counted, the calibration's uncounted ones too: a reward that
// starts high is the one there is most to lose on.
type Retention struct {
	Regressed, Passed int
	// Intervals are the (interval, reward) pairs counted: another
	// reward's mean rose.
	Intervals int
	// Runs are the runs with two or more evaluations in evals.jsonl.
	Runs int
}

// Rate is Regressed / Passed: NaN when nothing passed in a counted
// interval (no run has evals.jsonl, or no reward rose).
func (r Retention) Rate() float64 {
	if r.Passed == 0 {
		return math.NaN()
	}
	return float64(r.Regressed) / float64(r.Passed)
}

// add pools another run's counts.
func (r *Retention) add(o Retention) {
	r.Regressed += o.Regressed
	r.Passed += o.Passed
	r.Intervals += o.Intervals
	r.Runs += o.Runs
}

// RetentionOf counts a run's regressions (see Retention) from its
// evaluations in step order.
func RetentionOf(evals []run.EvalRecord) Retention {
	var out Retention
	if len(evals) < 2 {
		return out
	}
	out.Runs = 1
	for e := 1; e < len(evals); e++ {
		before, after := evals[e-1].Greedy, evals[e].Greedy
		rose := map[string]bool{}
		for k := range before {
			if _, ok := after[k]; ok {
				mb, nb := meanScore(before[k])
				ma, na := meanScore(after[k])
				rose[k] = nb > 0 && na > 0 && ma > mb+1e-12
			}
		}
		for k := range rose {
			if !anyOther(rose, k) {
				continue
			}
			out.Intervals++
			b, a := before[k], after[k]
			for i := range min(len(b), len(a)) {
				if b[i] == nil || a[i] == nil || *b[i] < passMark {
					continue
				}
				out.Passed++
				if *a[i] < passMark {
					out.Regressed++
				}
			}
		}
	}
	return out
}

// anyOther says whether a reward other than k rose.
func anyOther(rose map[string]bool, k string) bool {
	for j, r := range rose {
		if r && j != k {
			return true
		}
	}
	return false
}

// meanScore is the mean of the scores present and how many there are.
func meanScore(xs []*float64) (float64, int) {
	sum, n := 0.0, 0
	for _, x := range xs {
		if x != nil && !math.IsNaN(*x) {
			sum += *x
			n++
		}
	}
	if n == 0 {
		return math.NaN(), 0
	}
	return sum / float64(n), n
}

// methodRetention pools RetentionOf over the runs.
func methodRetention(runs []*Run) Retention {
	var out Retention
	for _, r := range runs {
		evals := append([]run.EvalRecord(nil), r.Evals...)
		sort.SliceStable(evals, func(i, j int) bool { return evals[i].Step < evals[j].Step })
		out.add(RetentionOf(evals))
	}
	return out
}

// retentionCell is "3.2% (5/156)", "—" without a counted interval.
func retentionCell(r Retention) string {
	if r.Passed == 0 {
		if r.Runs > 0 && r.Intervals == 0 {
			return "— (no interval with another reward rising)"
		}
		return "—"
	}
	return fmt.Sprintf("%s (%d/%d)", percent(r.Rate()), r.Regressed, r.Passed)
}
