package report

import (
	"fmt"
	"html"
	"html/template"
	"math"
	"strconv"
	"strings"
)

// palette is the Okabe–Ito colour-blind-safe set, one colour per method.
var palette = []string{"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#999933"}

func methodColor(i int) string { return palette[i%len(palette)] }

// dashes are the methods' line patterns (SVG stroke-dasharray), one per
// method beside its colour, so lines that coincide (GRPO and GDPO often
// do) still show both: a dashed line over a solid one leaves gaps.
var dashes = []string{"", "7 3", "2 2.5", "10 3 2 3", "4 4", "1.5 4", "14 3", "6 2 2 2 2 2"}

// methodDash is the i-th method's pattern; methods past the patterns'
// count (more than 8) reuse them with another colour.
func methodDash(i int) string { return dashes[i%len(dashes)] }

// swatch is the i-th method's line for a legend: its colour and dash.
func swatch(i int) template.HTML {
	return template.HTML(fmt.Sprintf(`<svg class="sw" width="30" height="8" aria-hidden="true"><line x1="0" y1="4" x2="30" y2="4" stroke="%s" stroke-width="2.2"%s/></svg>`,
		methodColor(i), dashAttr(methodDash(i)))) // our own colour and numbers
}

// dashAttr is the stroke-dasharray attribute of pattern d ("" for none).
func dashAttr(d string) string {
	if d == "" {
		return ""
	}
	return ` stroke-dasharray="` + d + `"`
}

// series is one line of a chart with an optional band around it.
type series struct {
	Name   string
	Color  string
	Dash   string    // stroke-dasharray of the line ("": solid)
	Y      []float64 // Y[s] at step s+1; NaN is a gap
	Lo, Hi []float64 // the band (nil: none)
}

// chart is a small line chart over training steps.
type chart struct {
	Title      string
	Series     []series
	HLine      float64 // a horizontal reference line (NaN: none)
	HLabel     string
	YMin, YMax float64 // the y range at least covers these (NaN: data only)
}

// Chart geometry in SVG user units.
const (
	chartW, chartH                      = 440, 230
	padL, padR, padT, padB              = 46, 12, 24, 32
	maxHoverPoints                      = 3000 // above this, points carry no hover title (keeps the page small)
	plotW, plotH                        = chartW - padL - padR, chartH - padT - padB
	bandOpacity, lineWidth, pointRadius = "0.18", "1.8", "2.2"
)

// svg draws the chart as inline SVG: axes with ticks, a band and a line
// per series, and invisible-until-hover points whose <title> gives the
// exact value (and band) at each step.
func (c chart) svg() template.HTML {
	n := 0
	lo, hi := c.YMin, c.YMax
	grow := func(v float64) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return
		}
		if math.IsNaN(lo) || v < lo {
			lo = v
		}
		if math.IsNaN(hi) || v > hi {
			hi = v
		}
	}
	points := 0
	for _, s := range c.Series {
		n = max(n, len(s.Y))
		for i, y := range s.Y {
			grow(y)
			if !math.IsNaN(y) {
				points++
			}
			if i < len(s.Lo) && i < len(s.Hi) {
				grow(s.Lo[i])
				grow(s.Hi[i])
			}
		}
	}
	grow(c.HLine)
	if math.IsNaN(lo) {
		lo, hi = 0, 1
	}
	if hi-lo < 1e-9 {
		lo, hi = lo-0.5, hi+0.5
	}
	yt := ticks(lo, hi, 5)
	lo, hi = min(lo, yt[0]), max(hi, yt[len(yt)-1])
	xmax := float64(max(n, 2))
	X := func(step float64) float64 { return padL + (step-1)/(xmax-1)*plotW }
	Y := func(v float64) float64 { return padT + (hi-v)/(hi-lo)*plotH }

	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" viewBox="0 0 %d %d" width="%d" height="%d" role="img" aria-label="%s">`, chartW, chartH, chartW, chartH, html.EscapeString(c.Title))
	fmt.Fprintf(&b, `<text x="%d" y="15" class="ct">%s</text>`, padL, html.EscapeString(c.Title))
	for _, t := range yt {
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%s" y2="%s" class="grid"/><text x="%d" y="%s" class="yt">%s</text>`,
			padL, chartW-padR, f1(Y(t)), f1(Y(t)), padL-4, f1(Y(t)+3), tickLabel(t))
	}
	for _, t := range ticks(1, xmax, 6) {
		if t < 1 || t > xmax || t != math.Trunc(t) {
			continue
		}
		fmt.Fprintf(&b, `<text x="%s" y="%d" class="xt">%s</text>`, f1(X(t)), chartH-padB+14, tickLabel(t))
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d" class="xl">step</text>`, padL+plotW/2, chartH-3)
	fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" class="frame"/>`, padL, padT, plotW, plotH)
	if !math.IsNaN(c.HLine) {
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%s" y2="%s" class="hl"><title>%s</title></line><text x="%d" y="%s" class="hlt">%s</text>`,
			padL, chartW-padR, f1(Y(c.HLine)), f1(Y(c.HLine)), html.EscapeString(c.HLabel+" "+exact(c.HLine)), chartW-padR-2, f1(Y(c.HLine)-3), html.EscapeString(c.HLabel))
	}
	for _, s := range c.Series {
		for _, seg := range segments(s) {
			if len(s.Lo) > 0 {
				var pts []string
				for _, i := range seg {
					pts = append(pts, f1(X(float64(i+1)))+","+f1(Y(s.Hi[i])))
				}
				for j := len(seg) - 1; j >= 0; j-- {
					pts = append(pts, f1(X(float64(seg[j]+1)))+","+f1(Y(s.Lo[seg[j]])))
				}
				fmt.Fprintf(&b, `<polygon points="%s" fill="%s" fill-opacity="%s"/>`, strings.Join(pts, " "), s.Color, bandOpacity)
			}
			var d strings.Builder
			for j, i := range seg {
				cmd := "L"
				if j == 0 {
					cmd = "M"
				}
				d.WriteString(cmd + f1(X(float64(i+1))) + "," + f1(Y(s.Y[i])))
			}
			if len(seg) == 1 { // a lone point: draw it, a path of one point is invisible
				fmt.Fprintf(&b, `<circle cx="%s" cy="%s" r="%s" fill="%s"/>`, f1(X(float64(seg[0]+1))), f1(Y(s.Y[seg[0]])), pointRadius, s.Color)
			}
			fmt.Fprintf(&b, `<path d="%s" fill="none" stroke="%s" stroke-width="%s"%s/>`, d.String(), s.Color, lineWidth, dashAttr(s.Dash))
		}
	}
	if points <= maxHoverPoints {
		for _, s := range c.Series {
			for i, y := range s.Y {
				if math.IsNaN(y) {
					continue
				}
				t := fmt.Sprintf("%s, step %d: %s", s.Name, i+1, exact(y))
				if i < len(s.Lo) && i < len(s.Hi) && !math.IsNaN(s.Lo[i]) {
					t += fmt.Sprintf(" (seeds %s to %s)", exact(s.Lo[i]), exact(s.Hi[i]))
				}
				fmt.Fprintf(&b, `<circle cx="%s" cy="%s" r="%s" fill="%s" class="pt"><title>%s</title></circle>`,
					f1(X(float64(i+1))), f1(Y(y)), pointRadius, s.Color, html.EscapeString(t))
			}
		}
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String()) // built here from escaped text and numbers
}

// segments are the runs of consecutive steps at which the series has a
// value (and a band, when it has one).
func segments(s series) [][]int {
	var out [][]int
	var cur []int
	for i, y := range s.Y {
		ok := !math.IsNaN(y) && !math.IsInf(y, 0)
		if len(s.Lo) > 0 {
			ok = ok && i < len(s.Lo) && i < len(s.Hi) && !math.IsNaN(s.Lo[i]) && !math.IsNaN(s.Hi[i])
		}
		if ok {
			cur = append(cur, i)
			continue
		}
		if len(cur) > 0 {
			out, cur = append(out, cur), nil
		}
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// ticks are about n round values (1, 2 or 5 × 10^k apart) covering [lo, hi].
// Each is computed as an integer over a power of ten, so 3 × 0.2 reads 0.6.
func ticks(lo, hi float64, n int) []float64 {
	raw := (hi - lo) / float64(max(n, 1))
	if raw <= 0 || math.IsNaN(raw) || math.IsInf(raw, 0) {
		return []float64{lo}
	}
	exp := math.Floor(math.Log10(raw))
	mag := math.Pow(10, exp)
	m := 10.0
	for _, c := range []float64{1, 2, 5} {
		if c*mag >= raw {
			m = c
			break
		}
	}
	at := func(k float64) float64 { return k * m * mag }
	if exp < 0 {
		inv := math.Pow(10, -exp)
		at = func(k float64) float64 { return k * m / inv }
	}
	step := m * mag
	var out []float64
	for k := math.Floor(lo / step); len(out) < 50; k++ {
		out = append(out, at(k))
		if at(k) >= hi-step*1e-9 {
			break
		}
	}
	return out
}

func tickLabel(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) }

// exact is v in the shortest form that reads back as the same float64.
func exact(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func f1(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
