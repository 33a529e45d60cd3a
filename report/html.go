package report

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/credo-rl/credo/internal/stats"
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
	Warmup     string
	Methods    []methodView
	Seeds      string
	Steps      int
	Threshold  string
	Window     int
	Runs       int
	Incomplete []string
	Table      tableView
	Rewards    []rewardView
	Diag       tableView
	Rollouts   []rolloutView
}

type methodView struct {
	Name, Color string
	Runs        int
}

type tableView struct {
	Header []string
	Body   [][]string
	Notes  []string
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
	p := page{Task: c.Task, Warmup: c.Warmup, Steps: c.Steps, Threshold: num(c.Threshold, -1), Window: c.Window, Runs: len(c.Runs)}
	p.Title = "credo report: " + c.Task
	var seeds []string
	for _, s := range c.Seeds {
		seeds = append(seeds, strconv.FormatUint(s, 10))
	}
	p.Seeds = strings.Join(seeds, ", ")
	for i, m := range c.Methods {
		p.Methods = append(p.Methods, methodView{Name: m, Color: methodColor(i), Runs: len(c.MethodRuns(m))})
	}
	for _, r := range c.Runs {
		if r.Incomplete {
			p.Incomplete = append(p.Incomplete, fmt.Sprintf("%s seed %d: %d of %d steps", r.Method, r.Seed, len(r.Metrics), r.Steps))
		}
	}
	rows := Table(c)
	g := makeGrid(rows)
	p.Table = tableView{g.header, g.body, g.notes}
	for _, k := range c.Rewards() {
		rv := rewardView{Name: k}
		curve := chart{Title: fmt.Sprintf("%s: training reward, moving mean over %d steps", k, c.Window),
			HLine: c.Threshold, HLabel: "threshold", YMin: 0, YMax: 1}
		conc := chart{Title: k + ": concentration (share of tokens holding 80% of q)", HLine: math.NaN(), YMin: 0, YMax: 1}
		loc := chart{Title: k + ": localization (1 = none)", HLine: 1, HLabel: "none", YMin: 0, YMax: math.NaN()}
		for i, m := range c.Methods {
			runs := c.MethodRuns(m)
			curve.Series = append(curve.Series, band(m, methodColor(i), runs, func(r *Run) []float64 {
				return MovingMean(r.Series(run.RewardKey(k, "mean")), c.Window)
			}))
			if s := band(m, methodColor(i), runs, func(r *Run) []float64 { return r.Series("credit/concentration/" + k) }); hasValue(s.Y) {
				conc.Series = append(conc.Series, s)
			}
			if s := band(m, methodColor(i), runs, func(r *Run) []float64 { return r.Series("credit/localization/" + k) }); hasValue(s.Y) {
				loc.Series = append(loc.Series, s)
			}
		}
		rv.Curve = curve.svg()
		if len(conc.Series)+len(loc.Series) > 0 {
			rv.HasCredit = true
			rv.Conc, rv.Loc = conc.svg(), loc.svg()
		}
		p.Rewards = append(p.Rewards, rv)
	}
	p.Diag = diagTable(c)
	p.Rollouts = pick(c)
	return p
}

// band is method m's series over its runs: at each step the mean of the
// runs' values, and (with two or more runs) their min and max.
func band(m, color string, runs []*Run, f func(*Run) []float64) series {
	s := series{Name: m, Color: color}
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
	t := tableView{Header: []string{"method", "reward", "concentration", "localization", "groups without variance", "pairs skipped (all rewards)"}}
	for _, m := range c.Methods {
		runs := c.MethodRuns(m)
		skipped := percent(perRun(runs, "credit/skipped"))
		for _, k := range c.Rewards() {
			t.Body = append(t.Body, []string{m, k,
				num(perRun(runs, "credit/concentration/"+k), 3),
				num(perRun(runs, "credit/localization/"+k), 2),
				percent(perRun(runs, run.RewardKey(k, "zero_var"))),
				skipped})
		}
	}
	t.Notes = []string{
		"concentration: the smallest share of a response's tokens holding 80% of its relevance q (lower is more concentrated).",
		"localization: q's share on the tokens the verifier checked over those tokens' share of the response; 1 means no localization.",
		"Means over logged steps, then over seeds; — where a method computes no relevance.",
	}
	return t
}
