package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/credo-rl/credo/internal/stats"
)

// fullNotes explain the full table's columns, its unit and its marks.
func fullNotes(rows []Row, l layout) []string {
	notes := []string{"AUC: mean over runs of the area under the training reward's curve per step (the mean of the per-step batch means): larger is learned sooner; start: the warm-up's pass rate when sampled as training samples." + headlineNote(rows)}
	if len(l.bases) > 0 {
		notes = append(notes, unitNote(l), marksNote(rows, l))
	}
	if l.warmups > 1 {
		notes = append(notes, "warm-ups vs …: the standard deviation of the per-warm-up mean differences (how far the effect moves from one warm-up to another) and on how many warm-ups the difference has the sign of the mean.")
	}
	if l.calibrated {
		notes = append(notes, fmt.Sprintf("steps to ½ gap: median over runs of the first step at which the moving mean of the training reward over %s reaches start + ½(1 − start); (r/n): runs that reached it.", stepsWord(l.window)))
	} else {
		notes = append(notes, fmt.Sprintf("steps to %s: median over runs of the first step at which the moving mean of the training reward over %s reaches %s; (r/n): runs that reached it.",
			num(l.threshold, 2), stepsWord(l.window), num(l.threshold, 2)))
	}
	if len(l.bases) > 0 {
		notes = append(notes, "steps ÷ …: this method's steps over the baseline's on the same reward (below 1: fewer steps; only this: only this method got there; not reached: only the baseline did; —: neither).")
	}
	notes = append(notes, "final eval: mean (± std over runs) of the last greedy evaluation on the test prompts (in brackets: the warm-up's); mean |A|: mean over steps of the batch's mean |advantage| over response tokens; credit overhead: credit seconds over step seconds.")
	return append(notes, tailNotes(l)...)
}

// tailNotes are the notes of the rewards left out and of runs cut short.
func tailNotes(l layout) []string {
	var notes []string
	switch {
	case len(l.excluded) > 0 && l.own:
		notes = append(notes, "Not counted on every warm-up, so outside the per-reward family (the headline averages each warm-up's own counted rewards; the first reason against each): "+strings.Join(l.excluded, "; ")+".")
	case len(l.excluded) > 0:
		notes = append(notes, "Not counted (the verdict leaves them out): "+strings.Join(l.excluded, "; ")+".")
	}
	if l.incomplete {
		notes = append(notes, "†: some runs stopped before their last step; their numbers use the steps they logged.")
	}
	return notes
}

// headlineNote says what a headline row is, when the table has one.
func headlineNote(rows []Row) string {
	i := slices.IndexFunc(rows, func(r Row) bool { return r.Headline })
	if i < 0 {
		return ""
	}
	name := fmt.Sprintf("mean of %d counted", len(rows[i].Rewards))
	if rows[i].Own != nil {
		name = "mean of own counted"
	}
	units := ""
	if own := rows[i].Own; own != nil {
		counting := 0
		for _, names := range own {
			if len(names) > 0 {
				counting++
			}
		}
		if counting < len(own) {
			units = fmt.Sprintf(" (its intervals over the %d warm-ups that count one)", counting)
		}
	}
	return fmt.Sprintf(" %s: each run's AUC (and final evaluation) averaged over %s, then paired: the headline comparison%s.",
		name, headlineWhat(rows[i]), units)
}

// unitNote says what the differences average over and what their
// interval covers.
func unitNote(l layout) string {
	switch {
	case l.units < 2:
		return "ΔAUC, Δ final: this method's value minus the baseline's on the one paired run (same prompts, same warm-up); one unit gives no interval and no p-value, so nothing is marked."
	case l.unit == stats.UnitWarmup:
		return fmt.Sprintf("ΔAUC, Δ final: the unit is the warm-up (n = %d): each warm-up's mean over its seeds of this method's value minus the baseline's with the same seed (same prompts, same warm-up), then the mean over warm-ups; "+
			"[95%% CI]: the Student-t interval over the %d warm-up means (%s), covering warm-up and RL-seed noise; p: %s; pt: the two-sided t-test p-value, the test the interval inverts.",
			l.units, l.units, dof(l.units), signNote(l.units))
	}
	return fmt.Sprintf("ΔAUC, Δ final: the unit is the run (n = %d seeds): the mean over seeds of this method's value minus the baseline's with the same seed (same prompts, same warm-up); "+
		"[95%% CI]: the Student-t interval over the %d paired runs (%s); p: %s; pt: the two-sided t-test p-value, the test the interval inverts. "+
		"With one warm-up the interval covers RL-seed noise only, not warm-up noise: another warm-up can move the effect by more than the interval (compare --warmups 3).",
		l.units, l.units, dof(l.units), signNote(l.units))
}

// stepsWord is "1 step" or "n steps".
func stepsWord(n int) string {
	if n == 1 {
		return "1 step"
	}
	return fmt.Sprintf("%d steps", n)
}

// dof is "n − 1 degrees of freedom" in words.
func dof(n int) string {
	if n == 2 {
		return "1 degree of freedom"
	}
	return fmt.Sprintf("%d degrees of freedom", n-1)
}

// signNote says how the sign-flip p-value of n units is computed.
func signNote(n int) string {
	if n > stats.ExactMax {
		return fmt.Sprintf("the two-sided sign-flip p-value from %d seeded random sign patterns (p≈)", stats.MonteCarloDraws)
	}
	return fmt.Sprintf("the exact two-sided sign-flip p-value over all 2^%d sign patterns (at least 2/2^%d = %s)", n, n, strconv.FormatFloat(2/float64(uint64(1)<<n), 'g', 3, 64))
}

// marksNote says which comparisons were corrected together and how many.
func marksNote(rows []Row, l layout) string {
	if l.units < 2 {
		return "No difference is marked: with one paired unit there is no p-value to correct (m = 0)."
	}
	head := familyTests(rows, FamilyHeadline)
	s := fmt.Sprintf("*: marked after Holm's correction at %v of the t-test p-values (the test the interval inverts) within a family: headline, %s", Alpha, family(rows, head))
	if i := slices.IndexFunc(rows, func(r Row) bool { return r.Headline }); i >= 0 {
		if len(head) > 0 && rows[i].Own != nil {
			s += " on the mean of each warm-up's own counted rewards"
		} else if len(head) > 0 {
			s += " on the mean of the counted rewards"
		}
		per := familyTests(rows, FamilyReward)
		s += "; per reward, " + family(rows, per)
		if len(per) > 0 {
			s += " on each of " + strings.Join(familyRewards(rows, FamilyReward), ", ")
		}
	} else if len(head) > 0 {
		s += " on " + rows[head[0].row].Reward
	}
	return s + ". A mirror cell (a baseline against a later one) is the same test. An unmarked difference is not established, whatever its sign; Δ final is not marked."
}

// family is "m = 5 (span − grpo, …)", or "m = 0" for a family without a
// comparison that has a p-value.
func family(rows []Row, tests []test) string {
	if len(tests) == 0 {
		return "m = 0"
	}
	return fmt.Sprintf("m = %d (%s)", len(tests), strings.Join(pairNames(rows, tests), ", "))
}

// pairNames are the distinct "method − baseline" of tests, in order.
func pairNames(rows []Row, tests []test) []string {
	var out []string
	for _, t := range tests {
		n := rows[t.row].Method + " − " + t.base
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// methodNotes explain the per-method table.
func methodNotes(l layout) []string {
	return []string{
		"mean response length: tokens per response, the mean over each run's steps, then over runs" + ifBases(l, "; length ÷ …: over the baseline's") + ".",
		"regressed while another reward rose: over consecutive evaluations of each run (evals.jsonl), the share of (test prompt, reward) pairs that passed (full marks, score 1) at one evaluation and failed at the next, " +
			"counted only for a reward while another reward's mean over the test prompts rose; every reward counts, the uncounted too; pooled over the method's runs (regressed/passed). " +
			"—: no evals.jsonl (runs written before it existed) or fewer than two evaluations in a run.",
	}
}

func ifBases(l layout, s string) string {
	if len(l.bases) == 0 {
		return ""
	}
	return s
}

// familyRewards are the distinct rewards of fam's rows, in row order.
func familyRewards(rows []Row, fam string) []string {
	var out []string
	for _, r := range rows {
		if r.Family == fam && !slices.Contains(out, r.Reward) {
			out = append(out, r.Reward)
		}
	}
	return out
}
