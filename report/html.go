package report

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/credo-rl/credo/internal/stats"
	"github.com/credo-rl/credo/report/plot"
	"github.com/credo-rl/credo/run"
)

//go:embed templates/report.html.tmpl
var pageSource string

// pageTemplate is parsed once; it is only read afterwards.
var pageTemplate = template.Must(template.New("report").Parse(pageSource))

// page is what the template renders.
type page struct {
	Title      string
	Task       string
	Intro      []string // what the task is and what a good result looks like
	Warmup     string
	Methods    []methodView
	Seeds      string
	Warmups    int
	Steps      int
	Criterion  string // what "steps to …" counts
	Runs       int
	Incomplete []string
	Table      tableView
	PerMethod  tableView // length and retention
	Summary    []string
	Rewards    []rewardView
	Diag       tableView
	Rollouts   []rolloutView
}

type methodView struct {
	Name, Color string
	Swatch      template.HTML // the method's line as the charts draw it
	Runs        int
}

type tableView struct {
	Header []string
	Rows   []rowView
	Notes  []string
}

type rowView struct {
	Cells    []string
	Headline bool // a method's mean over the counted rewards
}

func viewOf(g grid) tableView {
	t := tableView{Header: g.header, Notes: g.notes}
	for i, cells := range g.body {
		t.Rows = append(t.Rows, rowView{Cells: cells, Headline: i < len(g.headline) && g.headline[i]})
	}
	return t
}

type rewardView struct {
	Name      string
	Curve     template.HTML
	Conc, Loc template.HTML
	HasCredit bool // some method logged concentration or localization
}

// Write loads dir (a compare or run directory) and writes its report to
// dir/report.html, returning that path.
func Write(dir string) (string, error) {
	c, err := Load(dir)
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "report.html")
	return path, Save(c, path)
}

// Save renders c and writes it to path atomically (temporary file, rename).
func Save(c *Comparison, path string) error {
	var buf bytes.Buffer
	if err := Render(&buf, c); err != nil {
		return err
	}
	return run.WriteFile(path, buf.Bytes())
}

// Render writes the report page of c to w.
func Render(w io.Writer, c *Comparison) error {
	p := buildPage(c)
	if err := pageTemplate.Execute(w, p); err != nil {
		return fmt.Errorf("render report: %w", err)
	}
	return nil
}

func buildPage(c *Comparison) page {
	p := page{Task: c.Task, Warmup: c.Warmup, Steps: c.Steps, Runs: len(c.Runs), Warmups: len(c.Warmups)}
	p.Title = "credo report: " + c.Task
	var seeds []string
	for _, s := range c.Seeds {
		seeds = append(seeds, strconv.FormatUint(s, 10))
	}
	p.Seeds = strings.Join(seeds, ", ")
	for i, m := range c.Methods {
		p.Methods = append(p.Methods, methodView{Name: m, Color: plot.Color(i), Swatch: plot.Swatch(i), Runs: len(c.MethodRuns(m))})
	}
	for _, r := range c.Runs {
		if r.Incomplete {
			p.Incomplete = append(p.Incomplete, fmt.Sprintf("%s seed %d: %d of %d steps", r.Method, r.Seed, len(r.Metrics), r.Steps))
		}
	}
	rows := Table(c)
	p.Table, p.PerMethod, p.Summary = viewOf(fullGrid(rows)), viewOf(methodGrid(rows)), Summary(rows)
	p.Intro = intro(c)
	p.Criterion = criterion(c, layoutOf(rows))
	for _, k := range c.Rewards() {
		p.Rewards = append(p.Rewards, rewardCharts(c, k, rows))
	}
	p.Diag = diagTable(c)
	p.Rollouts = pick(c)
	return p
}

// rewardCharts are reward k's training curve, with its criterion as the
// reference line, and its credit diagnostics.
func rewardCharts(c *Comparison, k string, rows []Row) rewardView {
	rv := rewardView{Name: k}
	line, label := c.Threshold, "threshold"
	if i := slices.IndexFunc(rows, func(r Row) bool { return r.Reward == k && !r.Headline && !math.IsNaN(r.Start) }); i >= 0 {
		line, label = rows[i].Threshold, "½ gap"
	}
	curve := plot.Chart{Title: fmt.Sprintf("%s: training reward, moving mean over %d steps", k, c.Window),
		HLine: line, HLabel: label, YMin: 0, YMax: 1}
	conc := plot.Chart{Title: k + ": concentration (share of tokens holding 80% of q)", HLine: math.NaN(), YMin: 0, YMax: 1}
	loc := plot.Chart{Title: k + ": localization (1 = none)", HLine: 1, HLabel: "none", YMin: 0, YMax: math.NaN()}
	for i, m := range c.Methods {
		runs := c.MethodRuns(m)
		curve.Series = append(curve.Series, band(m, i, runs, func(r *Run) []float64 {
			return MovingMean(r.Series(run.RewardKey(k, "mean")), c.Window)
		}))
		if s := band(m, i, runs, func(r *Run) []float64 { return r.Series("credit/concentration/" + k) }); hasValue(s.Y) {
			conc.Series = append(conc.Series, s)
		}
		if s := band(m, i, runs, func(r *Run) []float64 { return r.Series("credit/localization/" + k) }); hasValue(s.Y) {
			loc.Series = append(loc.Series, s)
		}
	}
	rv.Curve = curve.SVG()
	if len(conc.Series)+len(loc.Series) > 0 {
		rv.HasCredit = true
		rv.Conc, rv.Loc = conc.SVG(), loc.SVG()
	}
	return rv
}

// band is method m's series over its runs (m is the i-th method, which
// sets its colour and dash pattern): at each step the mean of the
// runs' values, and (with two or more runs) their min and max.
func band(m string, i int, runs []*Run, f func(*Run) []float64) plot.Series {
	s := plot.Series{Name: m, Color: plot.Color(i), Dash: plot.Dash(i)}
	var all [][]float64
	n := 0
	for _, r := range runs {
		xs := f(r)
		all = append(all, xs)
		n = max(n, len(xs))
	}
	s.Y = make([]float64, n)
	if len(runs) > 1 {
		s.Lo, s.Hi = make([]float64, n), make([]float64, n)
	}
	for i := range n {
		var vs []float64
		for _, xs := range all {
			if i < len(xs) && !math.IsNaN(xs[i]) {
				vs = append(vs, xs[i])
			}
		}
		s.Y[i], _ = stats.MeanStd(vs)
		if s.Lo != nil {
			s.Lo[i], s.Hi[i] = math.NaN(), math.NaN()
			for j, v := range vs {
				if j == 0 || v < s.Lo[i] {
					s.Lo[i] = v
				}
				if j == 0 || v > s.Hi[i] {
					s.Hi[i] = v
				}
			}
		}
	}
	return s
}

func hasValue(xs []float64) bool {
	for _, x := range xs {
		if !math.IsNaN(x) {
			return true
		}
	}
	return false
}

// diagTable holds, per method and reward, the means over steps and runs
// of the credit diagnostics (ALGORITHMS.md §5) and of the share of groups
// without variance in that reward.
func diagTable(c *Comparison) tableView {
	g := grid{header: []string{"method", "reward", "concentration", "localization", "groups without variance", "pairs skipped (all rewards)"}}
	for _, m := range c.Methods {
		runs := c.MethodRuns(m)
		skipped := percent(perRun(runs, "credit/skipped"))
		for _, k := range c.Rewards() {
			g.body = append(g.body, []string{m, k,
				num(perRun(runs, "credit/concentration/"+k), 3),
				num(perRun(runs, "credit/localization/"+k), 2),
				percent(perRun(runs, run.RewardKey(k, "zero_var"))),
				skipped})
		}
	}
	g.notes = []string{
		"concentration: the smallest share of a response's tokens holding 80% of its relevance q (lower is more concentrated).",
		"localization: q's share on the tokens the verifier checked over those tokens' share of the response; 1 means no localization.",
		"Means over logged steps, then over seeds; — where a method computes no relevance.",
	}
	return viewOf(g)
}
