package report

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/credo-rl/credo/internal/stats"
)

// grid is a table as text cells, shared by Markdown, Text and the HTML page.
type grid struct {
	header   []string
	body     [][]string
	headline []bool // body[i] is a headline row (nil: none is)
	notes    []string
}

// layout is what the columns and notes of a table depend on.
type layout struct {
	bases      []string // baselines with a row in the table, in column order
	ref        string   // the final evaluation's reference: the last baseline, when it ran
	calibrated bool
	threshold  float64
	window     int
	units      int        // the most paired units of any ΔAUC
	unit       stats.Unit // what they are
	warmups    int        // the most warm-ups of any ΔAUC
	incomplete bool
	excluded   []string // "reward: why" of the rewards not counted
	own        bool     // the headline averages each warm-up's own counted rewards
}

func layoutOf(rows []Row) layout {
	l := layout{threshold: DefaultThreshold, window: DefaultWindow, unit: stats.UnitRun}
	for _, r := range rows {
		if !r.Headline {
			l.threshold, l.window = r.Threshold, r.Window
			break
		}
	}
	var order []string
	if len(rows) > 0 {
		order = rows[0].Baselines
	}
	for _, b := range order {
		if slices.ContainsFunc(rows, func(r Row) bool { _, ok := r.VsBaseline[b]; return ok }) {
			l.bases = append(l.bases, b)
		}
	}
	methods := map[string]bool{}
	for _, r := range rows {
		methods[r.Method] = true
	}
	if len(methods) < 2 { // nothing to compare with
		l.bases = nil
	}
	if len(order) > 0 && slices.Contains(l.bases, order[len(order)-1]) {
		l.ref = order[len(order)-1]
	}
	for _, r := range rows {
		l.calibrated = l.calibrated || !math.IsNaN(r.Start)
		l.incomplete = l.incomplete || r.Incomplete > 0
		l.own = l.own || r.Own != nil
		if !r.Counted && r.Method == rows[0].Method {
			l.excluded = append(l.excluded, r.Reward+": "+r.Why)
		}
		for _, p := range r.DeltaAUC {
			if p.N > l.units {
				l.units, l.unit = p.N, p.Unit
			}
			l.warmups = max(l.warmups, p.Warmups)
		}
	}
	return l
}

// intervals says whether the table has intervals to show.
func (l layout) intervals() bool { return l.units >= 2 }

// stepsHead is the steps column's header.
func (l layout) stepsHead() string {
	if l.calibrated {
		return "steps to ½ gap"
	}
	return "steps to " + num(l.threshold, 2)
}

// fullGrid is the table of Markdown and the HTML page: intervals, p,
// marks, the warm-up columns, ratios of steps, and the run's costs.
func fullGrid(rows []Row) grid {
	l := layoutOf(rows)
	var g grid
	ci := ""
	if l.intervals() {
		ci = " [95% CI] sign-flip p, t-test pt"
	}
	g.header = []string{"method", "reward", "start", "AUC"}
	for _, b := range l.bases {
		g.header = append(g.header, "ΔAUC vs "+b+ci)
	}
	if l.warmups > 1 {
		for _, b := range l.bases {
			g.header = append(g.header, "warm-ups vs "+b+": sd, same sign")
		}
	}
	g.header = append(g.header, l.stepsHead())
	for _, b := range l.bases {
		g.header = append(g.header, "steps ÷ "+b)
	}
	g.header = append(g.header, "final eval (greedy)")
	if l.ref != "" {
		g.header = append(g.header, "Δ final vs "+l.ref+ci)
	}
	g.header = append(g.header, "mean |A|", "s/step", "credit overhead")
	for _, r := range rows {
		cells := []string{methodCell(r), rewardCell(r, " (not counted)"), num(r.Start, 2), num(r.AUC, 3)}
		for _, b := range l.bases {
			cells = append(cells, deltaCell(r, r.DeltaAUC, b, r.Marked[b]))
		}
		if l.warmups > 1 {
			for _, b := range l.bases {
				cells = append(cells, warmupCell(r, b))
			}
		}
		cells = append(cells, stepsCell(r, true))
		for _, b := range l.bases {
			cells = append(cells, ratioCell(r, b))
		}
		cells = append(cells, evalCell(r, true))
		if l.ref != "" {
			cells = append(cells, deltaCell(r, r.DeltaEval, l.ref, false))
		}
		cells = append(cells, num(r.AbsAdv, 3), num(r.SecondsPerStep, 2), percent(r.CreditOverhead))
		g.body, g.headline = append(g.body, cells), append(g.headline, r.Headline)
	}
	g.notes = fullNotes(rows, l)
	return g
}

// methodGrid is the per-method table: response length and retention, the
// seeds' other claims.
func methodGrid(rows []Row) grid {
	l := layoutOf(rows)
	g := grid{header: []string{"method", "runs", "mean response length"}}
	for _, b := range l.bases {
		g.header = append(g.header, "length ÷ "+b)
	}
	g.header = append(g.header, "regressed while another reward rose")
	length := map[string]float64{}
	for _, r := range rows {
		length[r.Method] = r.Length
	}
	var seen []string
	for _, r := range rows {
		if slices.Contains(seen, r.Method) {
			continue
		}
		seen = append(seen, r.Method)
		cells := []string{r.Method, fmt.Sprint(r.Runs), num(r.Length, 1)}
		for _, b := range l.bases {
			v := math.NaN()
			if bl, ok := length[b]; ok && r.Method != b {
				v = r.Length / bl
			}
			cells = append(cells, ratioText(v))
		}
		g.body = append(g.body, append(cells, retentionCell(r.Retention)))
	}
	g.notes = methodNotes(l)
	return g
}

// Markdown is the full table as GitHub Markdown with its notes, the
// per-method table of length and retention with its notes, and the
// closing lines (Summary).
func Markdown(rows []Row) string {
	var b strings.Builder
	for _, g := range []grid{fullGrid(rows), methodGrid(rows)} {
		markdownTable(&b, g)
		b.WriteString("\n")
		for _, n := range g.notes {
			b.WriteString(n + "\n")
		}
		b.WriteString("\n")
	}
	for _, s := range Summary(rows) {
		b.WriteString(s + "\n")
	}
	return b.String()
}

// markdownTable writes g's header and body (the first two columns left
// aligned, the others right).
func markdownTable(b *strings.Builder, g grid) {
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
}
