package plot

import (
	"fmt"
	"html"
	"html/template"
	"math"
	"strconv"
	"strings"
)

// Series is one line of a chart with an optional band around it.
type Series struct {
	Name   string
	Color  string
	Dash   string    // stroke-dasharray of the line ("": solid)
	Y      []float64 // Y[s] at step s+1; NaN is a gap
	Lo, Hi []float64 // the band (nil: none)
}

// Chart is a small line chart over training steps.
type Chart struct {
	Title      string
	Series     []Series
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

// frame maps steps and values to SVG coordinates: x runs over steps
// 1..xmax, y over [lo, hi], both widened to round ticks.
type frame struct {
	lo, hi, xmax float64
	yTicks       []float64
}

func (f frame) x(step float64) float64 { return padL + (step-1)/(f.xmax-1)*plotW }
func (f frame) y(v float64) float64    { return padT + (f.hi-v)/(f.hi-f.lo)*plotH }

// SVG draws the chart as inline SVG: axes with ticks, a band and a line
// per series, and invisible-until-hover points whose <title> gives the
// exact value (and band) at each step.
func (c Chart) SVG() template.HTML {
	f, points := c.frame()
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" viewBox="0 0 %d %d" width="%d" height="%d" role="img" aria-label="%s">`, chartW, chartH, chartW, chartH, html.EscapeString(c.Title))
	fmt.Fprintf(&b, `<text x="%d" y="15" class="ct">%s</text>`, padL, html.EscapeString(c.Title))
	c.axes(&b, f)
	for _, s := range c.Series {
		for _, seg := range segments(s) {
			line(&b, f, s, seg)
		}
	}
	if points <= maxHoverPoints {
		for _, s := range c.Series {
			hover(&b, f, s)
		}
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String()) // built here from escaped text and numbers
}

// frame is the chart's coordinates, from every value, band and the
// reference line, and the count of points drawn.
func (c Chart) frame() (frame, int) {
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
	n, points := 0, 0
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
	yt := Ticks(lo, hi, 5)
	return frame{lo: min(lo, yt[0]), hi: max(hi, yt[len(yt)-1]), xmax: float64(max(n, 2)), yTicks: yt}, points
}

// axes draws the grid, the tick labels, the frame and the reference line.
func (c Chart) axes(b *strings.Builder, f frame) {
	for _, t := range f.yTicks {
		fmt.Fprintf(b, `<line x1="%d" x2="%d" y1="%s" y2="%s" class="grid"/><text x="%d" y="%s" class="yt">%s</text>`,
			padL, chartW-padR, f1(f.y(t)), f1(f.y(t)), padL-4, f1(f.y(t)+3), tickLabel(t))
	}
	for _, t := range Ticks(1, f.xmax, 6) {
		if t < 1 || t > f.xmax || t != math.Trunc(t) {
			continue
		}
		fmt.Fprintf(b, `<text x="%s" y="%d" class="xt">%s</text>`, f1(f.x(t)), chartH-padB+14, tickLabel(t))
	}
	fmt.Fprintf(b, `<text x="%d" y="%d" class="xl">step</text>`, padL+plotW/2, chartH-3)
	fmt.Fprintf(b, `<rect x="%d" y="%d" width="%d" height="%d" class="frame"/>`, padL, padT, plotW, plotH)
	if !math.IsNaN(c.HLine) {
		fmt.Fprintf(b, `<line x1="%d" x2="%d" y1="%s" y2="%s" class="hl"><title>%s</title></line><text x="%d" y="%s" class="hlt">%s</text>`,
			padL, chartW-padR, f1(f.y(c.HLine)), f1(f.y(c.HLine)), html.EscapeString(c.HLabel+" "+Exact(c.HLine)), chartW-padR-2, f1(f.y(c.HLine)-3), html.EscapeString(c.HLabel))
	}
}

// line draws one segment of a series: its band, if any, then its line (a
// lone point as a dot: a path of one point is invisible).
func line(b *strings.Builder, f frame, s Series, seg []int) {
	if len(s.Lo) > 0 {
		var pts []string
		for _, i := range seg {
			pts = append(pts, f1(f.x(float64(i+1)))+","+f1(f.y(s.Hi[i])))
		}
		for j := len(seg) - 1; j >= 0; j-- {
			pts = append(pts, f1(f.x(float64(seg[j]+1)))+","+f1(f.y(s.Lo[seg[j]])))
		}
		fmt.Fprintf(b, `<polygon points="%s" fill="%s" fill-opacity="%s"/>`, strings.Join(pts, " "), s.Color, bandOpacity)
	}
	var d strings.Builder
	for j, i := range seg {
		cmd := "L"
		if j == 0 {
			cmd = "M"
		}
		d.WriteString(cmd + f1(f.x(float64(i+1))) + "," + f1(f.y(s.Y[i])))
	}
	if len(seg) == 1 {
		fmt.Fprintf(b, `<circle cx="%s" cy="%s" r="%s" fill="%s"/>`, f1(f.x(float64(seg[0]+1))), f1(f.y(s.Y[seg[0]])), pointRadius, s.Color)
	}
	fmt.Fprintf(b, `<path d="%s" fill="none" stroke="%s" stroke-width="%s"%s/>`, d.String(), s.Color, lineWidth, dashAttr(s.Dash))
}

// hover draws a series' points, visible on hover, each titled with its
// exact value (and band).
func hover(b *strings.Builder, f frame, s Series) {
	for i, y := range s.Y {
		if math.IsNaN(y) {
			continue
		}
		t := fmt.Sprintf("%s, step %d: %s", s.Name, i+1, Exact(y))
		if i < len(s.Lo) && i < len(s.Hi) && !math.IsNaN(s.Lo[i]) {
			t += fmt.Sprintf(" (seeds %s to %s)", Exact(s.Lo[i]), Exact(s.Hi[i]))
		}
		fmt.Fprintf(b, `<circle cx="%s" cy="%s" r="%s" fill="%s" class="pt"><title>%s</title></circle>`,
			f1(f.x(float64(i+1))), f1(f.y(y)), pointRadius, s.Color, html.EscapeString(t))
	}
}

// segments are the runs of consecutive steps at which the series has a
// value (and a band, when it has one).
func segments(s Series) [][]int {
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

// Ticks are about n round values (1, 2 or 5 × 10^k apart) covering [lo, hi].
// Each is computed as an integer over a power of ten, so 3 × 0.2 reads 0.6.
func Ticks(lo, hi float64, n int) []float64 {
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

// Exact is v in the shortest form that reads back as the same float64.
func Exact(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func f1(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
