package report

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Summary is the table's conclusion in plain words: what the runs did on
// the counted rewards, then what the comparison can say: with one paired
// unit, that it cannot rank methods; with more, which headline
// differences survive Holm's correction.
func Summary(rows []Row) []string {
	head := headlineRows(rows)
	if len(head) == 0 {
		return []string{"No reward is counted (the calibration found none with room to learn and variance in its groups): this table judges no method."}
	}
	l := layoutOf(rows)
	out := []string{"What the runs show: " + learned(head)}
	switch {
	case len(l.bases) == 0:
	case l.units < 2:
		out = append(out, "One seed cannot rank methods: each Δ is a single paired difference with no interval, "+
			"and the order of the AUCs may be chance. Run --seeds 5 or more (and --warmups 3 for warm-up noise) for intervals and marks.")
	default:
		out = append(out, verdict(rows, l))
	}
	return out
}

// headlineRows are the rows of the headline family, in method order.
func headlineRows(rows []Row) []Row {
	var out []Row
	for _, r := range rows {
		if r.Family == FamilyHeadline {
			out = append(out, r)
		}
	}
	return out
}

// learned says where the methods' training reward went on the headline.
func learned(head []Row) string {
	what := "on " + head[0].Reward
	if head[0].Headline {
		what = "on " + headlineWhat(head[0])
	}
	lo, hi := head[0], head[0]
	above := 0
	for _, r := range head {
		if r.AUC < lo.AUC {
			lo = r
		}
		if r.AUC > hi.AUC {
			hi = r
		}
		if r.AUC > r.Start {
			above++
		}
	}
	s := what + ", "
	start := head[0].Start
	switch {
	case len(head) == 1 && math.IsNaN(start):
		s += "the mean training reward over the run (AUC) was " + num(lo.AUC, 3)
	case len(head) == 1:
		s += fmt.Sprintf("the mean training reward over the run (AUC) was %s, %s the start of %s", num(lo.AUC, 3), aboveOrNot(lo.AUC > start), num(start, 2))
	case math.IsNaN(start):
		s += fmt.Sprintf("the mean training reward over the run (AUC) ranged from %s (%s) to %s (%s)", num(lo.AUC, 3), lo.Method, num(hi.AUC, 3), hi.Method)
	default:
		who := fmt.Sprintf("%d of %d methods'", above, len(head))
		if above == len(head) {
			who = "every method's"
		}
		s += fmt.Sprintf("which start at %s, %s mean training reward over the run (AUC) was above the start, from %s (%s) to %s (%s)",
			num(start, 2), who, num(lo.AUC, 3), lo.Method, num(hi.AUC, 3), hi.Method)
	}
	return s + evalRange(head) + "."
}

func aboveOrNot(above bool) string {
	if above {
		return "above"
	}
	return "not above"
}

// evalRange is "; final greedy evaluation 0.95–0.98 (warm-up 0.93)".
func evalRange(head []Row) string {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, r := range head {
		if !math.IsNaN(r.FinalEval) {
			lo, hi = math.Min(lo, r.FinalEval), math.Max(hi, r.FinalEval)
		}
	}
	if math.IsInf(lo, 1) {
		return ""
	}
	s := "; final greedy evaluation " + num(lo, 3)
	if hi > lo {
		s += "–" + num(hi, 3)
	}
	if w := head[0].StartEval; !math.IsNaN(w) {
		s += " (warm-up " + num(w, 3) + ")"
	}
	return s
}

// verdict names the headline differences Holm's correction marks.
func verdict(rows []Row, l layout) string {
	tests := familyTests(rows, FamilyHeadline)
	var marked []string
	agree := 0
	for _, t := range tests {
		r := rows[t.row]
		p := r.DeltaAUC[t.base]
		if p.SignAgrees {
			agree++
		}
		if r.Marked[t.base] {
			marked = append(marked, fmt.Sprintf("%s − %s = %s [%s, %s]", r.Method, t.base, signed(p.Mean, 3), signed(p.Lo, 3), signed(p.Hi, 3)))
		}
	}
	var s string
	switch {
	case len(tests) == 0:
		s = "No headline comparison has two or more paired units, so none can be marked: these runs cannot rank methods"
	case len(marked) == 0:
		s = fmt.Sprintf("No headline difference is marked after Holm's correction (m = %d): these runs do not separate the methods", len(tests))
	default:
		s = fmt.Sprintf("Marked after Holm's correction over the headline comparisons (m = %d): %s; the others are not established", len(tests), strings.Join(marked, ", "))
	}
	if l.unit == "warm-up" {
		s += fmt.Sprintf(". The sign agreed on every warm-up for %d of the %d", agree, len(tests))
	} else {
		s += " (one warm-up: the intervals cover RL-seed noise only)"
	}
	if slices.ContainsFunc(rows, func(r Row) bool { return r.Headline }) {
		s += "; per-reward cells are corrected on their own"
	}
	return s + "."
}
