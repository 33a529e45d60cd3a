package report

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"text/tabwriter"
	"unicode/utf8"
)

// TextWidth is the width Text keeps to, in columns.
const TextWidth = 100

// narrowForm is how compact the terminal's table is: the warm-up's
// evaluation in brackets, spaces around ±, and names cut to nameMax runes
// (0: whole).
type narrowForm struct {
	startEval, spaced bool
	nameMax           int
}

// narrowForms are tried in order until the table fits TextWidth: the
// built-in tasks' names fit the first or the second; cut names are the
// last resort for long method names.
var narrowForms = []narrowForm{{true, true, 0}, {false, true, 0}, {false, false, 0}, {false, false, 12}, {false, false, 8}}

// narrowGrid is the terminal's table: method, reward, start, AUC, ΔAUC
// against each baseline (± the interval's half-width only with two or more
// units), steps to threshold and the final evaluation.
func narrowGrid(rows []Row, f narrowForm) grid {
	l := layoutOf(rows)
	g := grid{header: []string{"method", "reward", "start", "AUC"}}
	for _, b := range l.bases {
		g.header = append(g.header, "ΔAUC vs "+b)
	}
	g.header = append(g.header, l.stepsHead(), "final eval")
	for _, r := range rows {
		reward := cut(r.Reward, f.nameMax)
		switch {
		case r.Headline:
			reward = HeadlineReward
		case !r.Counted:
			reward += "°"
		}
		method := cut(r.Method, f.nameMax)
		if r.Incomplete > 0 {
			method += "†"
		}
		cells := []string{method, reward, num(r.Start, 2), num(r.AUC, 3)}
		for _, b := range l.bases {
			cells = append(cells, narrowDelta(r, b, f.spaced))
		}
		if !f.startEval {
			r.StartEval = math.NaN()
		}
		g.body = append(g.body, append(cells, stepsCell(r, false), evalCell(r, false)))
	}
	g.notes = narrowNotes(rows, l, f)
	return g
}

// cut shortens s to n runes, the last one "…" (n 0: s whole).
func cut(s string, n int) string {
	if r := []rune(s); n > 0 && len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// narrowNotes are the terminal's notes: what the columns are, briefly.
func narrowNotes(rows []Row, l layout, f narrowForm) []string {
	notes := []string{"start: the warm-up's pass rate; AUC: mean training reward over the run (higher: learned sooner)" +
		ifHeadline(rows, "; mean: each run's mean over the counted rewards"+ownWords(rows)+", the headline") + "."}
	if len(l.bases) > 0 {
		s := "ΔAUC: paired difference from the baseline (same prompts, same warm-up)"
		if l.intervals() {
			s += fmt.Sprintf(", ± the half-width of its Student-t 95%% interval over %d %s", l.units, unitWord(l))
			s += fmt.Sprintf("; * marked after Holm's correction (headline m = %d)", len(familyTests(rows, FamilyHeadline)))
		}
		notes = append(notes, s+".")
	}
	s := "final eval: greedy, on the test prompts."
	if l.calibrated && f.startEval {
		s = "final eval: greedy, on the test prompts (the warm-up's in brackets)."
	}
	if l.calibrated {
		s = "steps to ½ gap: first step the moving mean reaches start + ½(1 − start); " + s
	}
	notes = append(notes, s)
	if len(l.excluded) > 0 {
		notes = append(notes, "°: not counted: "+strings.Join(l.excluded, "; ")+".")
	}
	if l.incomplete {
		notes = append(notes, "†: some runs stopped before their last step.")
	}
	return notes
}

// ownWords is " of its own warm-up" when the headline follows
// run.HeadlineOwn, else "".
func ownWords(rows []Row) string {
	if slices.ContainsFunc(rows, func(r Row) bool { return r.Own != nil }) {
		return " of its own warm-up"
	}
	return ""
}

func ifHeadline(rows []Row, s string) string {
	for _, r := range rows {
		if r.Headline {
			return s
		}
	}
	return ""
}

// unitWord names the units of the intervals.
func unitWord(l layout) string {
	if l.unit == "warm-up" {
		return "warm-ups"
	}
	return "seeds"
}

// Text is the narrow table for a terminal (TextWidth columns with the
// tasks' reward names), its notes and the closing lines (Summary),
// wrapped to TextWidth; Markdown has the full table.
func Text(rows []Row) string {
	var b strings.Builder
	var g grid
	for _, f := range narrowForms {
		b.Reset()
		g = narrowGrid(rows, f)
		w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		for _, cells := range append([][]string{g.header}, g.body...) {
			for i, c := range cells {
				cells[i] = strings.ReplaceAll(c, "\t", " ")
			}
			fmt.Fprintln(w, strings.Join(cells, "\t"))
		}
		w.Flush()
		if widest(b.String()) <= TextWidth {
			break
		}
	}
	b.WriteString("\n")
	for _, n := range g.notes {
		b.WriteString(wrap(n, TextWidth))
	}
	b.WriteString("\n")
	for _, n := range Summary(rows) {
		b.WriteString(wrap(n, TextWidth))
	}
	return b.String()
}

// widest is the longest line of s, in runes.
func widest(s string) int {
	n := 0
	for _, l := range strings.Split(s, "\n") {
		n = max(n, utf8.RuneCountInString(l))
	}
	return n
}

// wrap breaks s into lines of at most width runes at spaces (a word
// longer than width stands alone), each ending in a newline.
func wrap(s string, width int) string {
	var b strings.Builder
	n := 0
	for i, word := range strings.Fields(s) {
		wl := utf8.RuneCountInString(word)
		switch {
		case i == 0:
		case n+1+wl > width:
			b.WriteString("\n")
			n = 0
		default:
			b.WriteString(" ")
			n++
		}
		b.WriteString(word)
		n += wl
	}
	b.WriteString("\n")
	return b.String()
}
