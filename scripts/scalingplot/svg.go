package main

import (
	"fmt"
	"html"
	"math"
	"sort"
	"strings"
)

// Plot geometry, in SVG user units (pixels).
const (
	panelW, panelH = 300, 210 // plotting area of one panel
	marginL        = 78       // room for y tick labels and the axis label
	marginR        = 24
	marginT        = 34 // room for the panel title
	marginB        = 52 // room for x tick labels and the axis label
	headerH        = 40 // figure title
	legendH        = 40
)

var sideColor = map[string]string{"credo": "#1f6fb4", "PyTorch": "#e8710a"}

// dashes tell a panel's series (models) apart; the colour tells the side.
var dashes = []string{"", "7,4", "2,3"}

// metric is one row of panels: what is plotted and how its axis reads.
type metric struct {
	label  string
	values func(r row) (credo, torch float64)
}

var metrics = []metric{
	{"seconds per step", func(r row) (float64, float64) { return r.credoS, r.torchS }},
	{"peak RSS, MiB", func(r row) (float64, float64) { return r.credoMiB, r.torchMiB }},
}

// plotSVG draws one column per sweep and one row per metric, log-log.
func plotSVG(panels []*panel, title string) string {
	cellW, cellH := marginL+panelW+marginR, marginT+panelH+marginB
	W := cellW * len(panels)
	H := headerH + cellH*len(metrics) + legendH
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="Helvetica, Arial, sans-serif" font-size="12">`+"\n", W, H, W, H)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", W, H)
	fmt.Fprintf(&b, `<text x="%d" y="24" text-anchor="middle" font-size="15" font-weight="bold">%s</text>`+"\n", W/2, esc(title))
	for mi, m := range metrics {
		for pi, p := range panels {
			x0, y0 := pi*cellW+marginL, headerH+mi*cellH+marginT
			drawPanel(&b, p, m, x0, y0)
		}
	}
	drawLegend(&b, panels, W, H-legendH+8)
	b.WriteString("</svg>\n")
	return b.String()
}

// logScale maps [lo, hi] (positive) onto [a, b] logarithmically.
type logScale struct{ lo, hi, a, b float64 }

func (s logScale) at(v float64) float64 {
	return s.a + (math.Log(v)-math.Log(s.lo))/(math.Log(s.hi)-math.Log(s.lo))*(s.b-s.a)
}

// padded widens [lo, hi] by frac of its log width on each side, and makes
// a single value into a range around it.
func padded(lo, hi, frac float64) (float64, float64) {
	if hi <= lo {
		return lo / 2, hi * 2
	}
	r := math.Log(hi / lo)
	return lo * math.Exp(-frac*r), hi * math.Exp(frac*r)
}

// yTicks are the 1-2-5 values in [lo, hi], or finer sets of round values
// when a narrow range holds fewer than two of those, or else the ends.
func yTicks(lo, hi float64) []float64 {
	for _, mantissas := range [][]float64{{1, 2, 5}, {1, 1.5, 2, 3, 4, 5, 6, 8}, {1, 1.2, 1.5, 2, 2.5, 3, 3.5, 4, 5, 6, 7, 8, 9}} {
		var ts []float64
		for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
			for _, m := range mantissas {
				if v := m * math.Pow(10, e); v >= lo && v <= hi {
					ts = append(ts, v)
				}
			}
		}
		if len(ts) >= 2 {
			return ts
		}
	}
	return []float64{lo, hi}
}

func drawPanel(b *strings.Builder, p *panel, m metric, x0, y0 int) {
	// Ranges over the values present; a panel with none is drawn empty.
	xlo, xhi, ylo, yhi := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, r := range p.rows {
		xlo, xhi = math.Min(xlo, r.x), math.Max(xhi, r.x)
		c, t := m.values(r)
		for _, v := range []float64{c, t} {
			if !math.IsNaN(v) {
				ylo, yhi = math.Min(ylo, v), math.Max(yhi, v)
			}
		}
	}
	if math.IsInf(ylo, 0) {
		ylo, yhi = 0.1, 1
	}
	xlo, xhi = padded(xlo, xhi, 0.08)
	ylo, yhi = padded(ylo, yhi, 0.12)
	xs := logScale{xlo, xhi, float64(x0), float64(x0 + panelW)}
	ys := logScale{ylo, yhi, float64(y0 + panelH), float64(y0)}

	fmt.Fprintf(b, `<text x="%d" y="%d" text-anchor="middle" font-size="13" font-weight="bold">%s</text>`+"\n",
		x0+panelW/2, y0-12, esc(p.title))
	fmt.Fprintf(b, `<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#444"/>`+"\n", x0, y0, panelW, panelH)
	// y grid and ticks.
	for _, v := range yTicks(ylo, yhi) {
		y := ys.at(v)
		fmt.Fprintf(b, `<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>`+"\n", x0, x0+panelW, y, y)
		fmt.Fprintf(b, `<text x="%d" y="%.1f" text-anchor="end" dominant-baseline="middle">%s</text>`+"\n", x0-6, y, fmtTick(v))
	}
	fmt.Fprintf(b, `<text transform="translate(%d,%d) rotate(-90)" text-anchor="middle">%s (log)</text>`+"\n",
		x0-marginL+16, y0+panelH/2, esc(m.label))
	// x ticks at the measured shapes, labelled as the sweep names them.
	seen := map[float64]bool{}
	for _, r := range p.rows {
		if seen[r.x] {
			continue
		}
		seen[r.x] = true
		x := xs.at(r.x)
		fmt.Fprintf(b, `<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#eee"/>`+"\n", x, x, y0, y0+panelH)
		fmt.Fprintf(b, `<text x="%.1f" y="%d" text-anchor="middle">%s</text>`+"\n", x, y0+panelH+16, esc(r.tick))
	}
	fmt.Fprintf(b, `<text x="%d" y="%d" text-anchor="middle">%s (log)</text>`+"\n", x0+panelW/2, y0+panelH+38, esc(p.xlabel))

	// One polyline per side per series, with markers.
	for si, series := range seriesOf(p) {
		dash := dashes[si%len(dashes)]
		for _, side := range []string{"credo", "PyTorch"} {
			var pts []string
			var lastX, lastY float64
			for _, r := range p.rows {
				if r.series != series {
					continue
				}
				c, t := m.values(r)
				v := c
				if side == "PyTorch" {
					v = t
				}
				if math.IsNaN(v) {
					continue
				}
				x, y := xs.at(r.x), ys.at(v)
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", x, y))
				lastX, lastY = x, y
				marker(b, side, x, y)
			}
			if len(pts) > 1 {
				fmt.Fprintf(b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="2"%s/>`+"\n",
					strings.Join(pts, " "), sideColor[side], dashAttr(dash))
			}
			if series != "" && len(pts) > 0 && side == "credo" { // name the model at its line's end
				fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="end" font-size="11" fill="#333">%s</text>`+"\n", lastX-6, lastY-6, esc(series))
			}
		}
	}
}

// marker is a circle for credo and a square for PyTorch, so the sides
// differ without colour too.
func marker(b *strings.Builder, side string, x, y float64) {
	if side == "credo" {
		fmt.Fprintf(b, `<circle cx="%.1f" cy="%.1f" r="3.5" fill="%s"/>`+"\n", x, y, sideColor[side])
		return
	}
	fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="7" height="7" fill="%s"/>`+"\n", x-3.5, y-3.5, sideColor[side])
}

func dashAttr(d string) string {
	if d == "" {
		return ""
	}
	return fmt.Sprintf(` stroke-dasharray="%s"`, d)
}

// seriesOf lists a panel's series in order of first appearance.
func seriesOf(p *panel) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range p.rows {
		if !seen[r.series] {
			seen[r.series] = true
			out = append(out, r.series)
		}
	}
	return out
}

// drawLegend names the sides, and the line styles when a panel has more
// than one series.
func drawLegend(b *strings.Builder, panels []*panel, W, y int) {
	type entry struct{ label, color, dash, side string }
	entries := []entry{{"credo", sideColor["credo"], "", "credo"}, {"PyTorch 1.13 + OpenBLAS", sideColor["PyTorch"], "", "PyTorch"}}
	styles := map[string]int{}
	for _, p := range panels {
		if ss := seriesOf(p); len(ss) > 1 {
			for i, s := range ss {
				if _, ok := styles[s]; !ok {
					styles[s] = i
				}
			}
		}
	}
	names := make([]string, 0, len(styles))
	for s := range styles {
		names = append(names, s)
	}
	sort.Slice(names, func(i, j int) bool { return styles[names[i]] < styles[names[j]] })
	for _, s := range names {
		entries = append(entries, entry{s + " model", "#555", dashes[styles[s]%len(dashes)], ""})
	}
	const itemW = 210
	x := (W - itemW*len(entries)) / 2
	for _, e := range entries {
		fmt.Fprintf(b, `<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="%s" stroke-width="2"%s/>`+"\n", x, x+34, y+10, y+10, e.color, dashAttr(e.dash))
		if e.side != "" {
			marker(b, e.side, float64(x+17), float64(y+10))
		}
		fmt.Fprintf(b, `<text x="%d" y="%d" dominant-baseline="middle">%s</text>`+"\n", x+42, y+10, esc(e.label))
		x += itemW
	}
}

// fmtTick writes 0.05, 0.2, 1, 20, 500, 2000 without exponents.
func fmtTick(v float64) string {
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.4f", v), "0"), ".")
}

func esc(s string) string { return html.EscapeString(s) }
