package report

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/credo-rl/credo/internal/stats"
	"github.com/credo-rl/credo/run"
)

// ownCounted is, when the comparison's headline follows run.HeadlineOwn
// and every one of its several warm-ups was calibrated, the rewards each
// warm-up's calibration counts, by warm-up index; nil otherwise (with one
// warm-up the two rules are the same).
func (c *Comparison) ownCounted() map[int][]string {
	if c.Headline != run.HeadlineOwn || len(c.Warmups) < 2 || len(c.Calibrations) != len(c.Warmups) {
		return nil
	}
	own := map[int][]string{}
	for w, cal := range c.Calibrations {
		own[w] = cal.Counted()
	}
	return own
}

// ownHeadlineRow is a method's headline under run.HeadlineOwn: for each
// unit, the mean of its AUCs (final evaluations) over the rewards its own
// warm-up counts, where it has all of them; units of a warm-up that counts
// none are left out. Start (StartEval) is the mean over warm-ups of each
// one's mean start on its counted rewards. ok is false when no unit has a
// value.
func ownHeadlineRow(all []Row, own map[int][]string, cals map[int]*run.Calibration, ms methodStats) (Row, bool) {
	row := newHeadline(all, func(u Unit) []string { return own[u.Warmup] }, ms)
	row.Own = own
	if len(row.AUCs) == 0 {
		return row, false
	}
	for _, r := range all {
		if slices.ContainsFunc(sortedWarmups(own), func(w int) bool { return slices.Contains(own[w], r.Reward) }) {
			row.Rewards = append(row.Rewards, r.Reward)
		}
	}
	var starts, startEvals []float64
	for _, w := range sortedWarmups(own) {
		if len(own[w]) == 0 {
			continue
		}
		var s, e []float64
		for _, k := range own[w] {
			p, _ := cals[w].Start(k)
			ev, ok := cals[w].Eval[k]
			if !ok {
				ev = math.NaN()
			}
			s, e = append(s, p), append(e, ev)
		}
		starts, startEvals = append(starts, stats.Mean(s)), append(startEvals, meanAll(e))
	}
	row.Start, row.StartEval = meanAll(starts), meanAll(startEvals)
	return row, true
}

// sortedWarmups are own's warm-up indices in order.
func sortedWarmups(own map[int][]string) []int {
	ws := make([]int, 0, len(own))
	for w := range own {
		ws = append(ws, w)
	}
	slices.Sort(ws)
	return ws
}

// headlineWhat says what a headline row averages: "the counted rewards
// (a, b)", or under run.HeadlineOwn "each warm-up's own counted rewards
// (warm-up 1: a, b; warm-up 2: b)".
func headlineWhat(r Row) string {
	if r.Own == nil {
		return "the counted rewards (" + strings.Join(r.Rewards, ", ") + ")"
	}
	var each []string
	for _, w := range sortedWarmups(r.Own) {
		names := strings.Join(r.Own[w], ", ")
		if names == "" {
			names = "none, so its runs are left out"
		}
		each = append(each, fmt.Sprintf("warm-up %d: %s", w, names))
	}
	return "each warm-up's own counted rewards (" + strings.Join(each, "; ") + ")"
}
