package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/credo-rl/credo/internal/stats"
)

// grid is the table as text cells, shared by Markdown, Text and the HTML page.
type grid struct {
	header []string
	body   [][]string
	notes  []string
}

func makeGrid(rows []Row) grid {
	var g grid
	threshold, window := DefaultThreshold, DefaultWindow
	calibrated := false
	if len(rows) > 0 {
		threshold, window = rows[0].Threshold, rows[0].Window
	}
	for _, r := range rows {
		calibrated = calibrated || !math.IsNaN(r.Start)
	}
	var bases []string
	incomplete := false
	var order []string
	if len(rows) > 0 {
		order = rows[0].Baselines
	}
	for _, b := range order {
		if slices.ContainsFunc(rows, func(r Row) bool { _, ok := r.VsBaseline[b]; return ok }) {
			bases = append(bases, b)
		}
	}
	stepsHead := "steps to " + num(threshold, 2)
	if calibrated {
		stepsHead = "steps to ½ gap"
	}
	g.header = []string{"method", "reward", "start", "AUC"}
	for _, b := range bases {
		g.header = append(g.header, "ΔAUC vs "+b+" [95% CI]")
	}
	g.header = append(g.header, stepsHead, "final eval (greedy)")
	ref := "" // the reference of the final evaluation's difference: the last baseline, when it ran
	if len(order) > 0 && slices.Contains(bases, order[len(order)-1]) {
		ref = order[len(order)-1]
		g.header = append(g.header, "Δ final vs "+ref+" [95% CI]")
	}
	g.header = append(g.header, "mean |A|", "s/step", "credit overhead")
	var excluded []string
	for _, r := range rows {
		m := r.Method
		if r.Incomplete > 0 {
			m += "†"
			incomplete = true
		}
		reward := r.Reward
		if !r.Counted {
			reward += " (not counted)"
			if r.Method == rows[0].Method {
				excluded = append(excluded, r.Reward+": "+r.Why)
			}
		}
		cells := []string{m, reward, num(r.Start, 2), num(r.AUC, 3)}
		for _, b := range bases {
			cells = append(cells, deltaCell(r, r.DeltaAUC, b))
		}
		cells = append(cells, stepsCell(r), evalCell(r))
		if ref != "" {
			cells = append(cells, deltaCell(r, r.DeltaEval, ref))
		}
		cells = append(cells, num(r.AbsAdv, 3), num(r.SecondsPerStep, 2), percent(r.CreditOverhead))
		g.body = append(g.body, cells)
	}
	g.notes = append(g.notes, "AUC: mean over seeds of the area under the training reward's curve per step (the mean of the per-step batch means): larger is learned sooner; start: the warm-up's pass rate when sampled as training samples.")
	if len(bases) > 0 {
		g.notes = append(g.notes, "Δ … [95% CI]: mean over seeds of this method's value minus the baseline's with the same seed (same prompts, same warm-up), with a paired bootstrap 95% interval; * marks an interval that excludes 0.")
	}
	if calibrated {
		g.notes = append(g.notes, fmt.Sprintf("steps to ½ gap: median over seeds of the first step at which the moving mean of the training reward over %d steps reaches start + ½(1 − start); (r/n): seeds that reached it.", window))
	} else {
		g.notes = append(g.notes, fmt.Sprintf("steps to %s: median over seeds of the first step at which the moving mean of the training reward over %d steps reaches %s; (r/n): seeds that reached it.",
			num(threshold, 2), window, num(threshold, 2)))
	}
	g.notes = append(g.notes, "final eval: mean ± std over seeds of the last greedy evaluation (in brackets: the warm-up's); mean |A|: mean over steps of the batch's mean |advantage| over response tokens; credit overhead: credit seconds over step seconds.")
	if len(excluded) > 0 {
		g.notes = append(g.notes, "Not counted (the verdict leaves them out): "+strings.Join(excluded, "; ")+".")
	}
	if incomplete {
		g.notes = append(g.notes, "†: some runs stopped before their last step; their numbers use the steps they logged.")
	}
	return g
}

// deltaCell is "+0.031 [+0.012, +0.050]*" for a row's interval against
// baseline b; "—" where there is none (the baseline's own row, or one seed).
func deltaCell(r Row, d map[string]stats.Interval, b string) string {
	iv, ok := d[b]
	if !ok || r.Method == b || math.IsNaN(iv.Mean) {
		return "—"
	}
	s := signed(iv.Mean, 3)
	if !math.IsNaN(iv.Lo) {
		s += " [" + signed(iv.Lo, 3) + ", " + signed(iv.Hi, 3) + "]"
	}
	if iv.Excludes0() {
		s += "*"
	}
	return s
}

func signed(v float64, prec int) string {
	if v >= 0 {
		return "+" + num(v, prec)
	}
	return num(v, prec)
}

func stepsCell(r Row) string {
	seeds := fmt.Sprintf(" (%d/%d)", r.Reached, r.Runs)
	switch {
	case math.IsNaN(r.StepsToThreshold):
		return "—"
	case math.IsInf(r.StepsToThreshold, 1):
		return "not reached" + seeds
	}
	return num(r.StepsToThreshold, -1) + seeds
}

func evalCell(r Row) string {
	if r.EvalRuns == 0 || math.IsNaN(r.FinalEval) {
		return "—"
	}
	s := num(r.FinalEval, 3) + " ± " + num(r.FinalEvalStd, 3)
	if r.EvalRuns < r.Runs {
		s += fmt.Sprintf(" (%d/%d)", r.EvalRuns, r.Runs)
	}
	if !math.IsNaN(r.StartEval) {
		s += " (" + num(r.StartEval, 3) + ")"
	}
	return s
}

func ratioCell(v float64) string {
	switch {
	case math.IsNaN(v):
		return "—"
	case math.IsInf(v, 1):
		return "∞"
	}
	return num(v, 2)
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

// Markdown is the table as GitHub Markdown, with its notes below.
func Markdown(rows []Row) string {
	g := makeGrid(rows)
	var b strings.Builder
	esc := strings.NewReplacer("|", `\|`, "\n", " ")
	line := func(cells []string) {
		b.WriteString("|")
		for _, c := range cells {
			b.WriteString(" " + esc.Replace(c) + " |")
		}
		b.WriteString("\n")
	}
	line(g.header)
	b.WriteString("|")
	for i := range g.header {
		if i < 2 {
			b.WriteString(" --- |")
		} else {
			b.WriteString(" ---: |")
		}
	}
	b.WriteString("\n")
	for _, r := range g.body {
		line(r)
	}
	b.WriteString("\n")
	for _, n := range g.notes {
		b.WriteString(n + "\n")
	}
	return b.String()
}

// Text is the table with aligned columns for a terminal, notes below.
func Text(rows []Row) string {
	g := makeGrid(rows)
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for _, cells := range append([][]string{g.header}, g.body...) {
		for i, c := range cells {
			cells[i] = strings.ReplaceAll(c, "\t", " ")
		}
		fmt.Fprintln(w, strings.Join(cells, "\t"))
	}
	w.Flush()
	for _, n := range g.notes {
		b.WriteString(n + "\n")
	}
	return b.String()
}
