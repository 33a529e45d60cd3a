package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
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
	if len(rows) > 0 {
		threshold, window = rows[0].Threshold, rows[0].Window
	}
	var bases []string
	incomplete := false
	for _, b := range Baselines {
		if slices.ContainsFunc(rows, func(r Row) bool { _, ok := r.VsBaseline[b]; return ok }) {
			bases = append(bases, b)
		}
	}
	g.header = []string{"method", "reward", "steps to " + num(threshold, 2), "final eval (greedy)", "length", "s/step", "credit overhead"}
	for _, b := range bases {
		g.header = append(g.header, "steps ÷ "+b)
	}
	for _, r := range rows {
		m := r.Method
		if r.Incomplete > 0 {
			m += "†"
			incomplete = true
		}
		cells := []string{m, r.Reward, stepsCell(r), evalCell(r), num(r.Length, 1), num(r.SecondsPerStep, 2), percent(r.CreditOverhead)}
		for _, b := range bases {
			v, ok := r.VsBaseline[b]
			if !ok {
				v = math.NaN()
			}
			cells = append(cells, ratioCell(v))
		}
		g.body = append(g.body, cells)
	}
	g.notes = append(g.notes, fmt.Sprintf("steps to %s: median over seeds of the first step at which the moving mean of the training reward over %d steps reaches %s; (r/n): seeds that reached it.",
		num(threshold, 2), window, num(threshold, 2)))
	g.notes = append(g.notes, "final eval: mean ± std over seeds of the last greedy evaluation; length: mean response tokens; credit overhead: credit seconds over step seconds.")
	if len(bases) > 0 {
		g.notes = append(g.notes, "steps ÷ baseline: this method's steps to threshold over the baseline's; ∞: only the baseline reached it; 0: only this method did.")
	}
	if incomplete {
		g.notes = append(g.notes, "†: some runs stopped before their last step; their numbers use the steps they logged.")
	}
	return g
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
