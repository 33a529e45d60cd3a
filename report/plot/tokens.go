package plot

import (
	"fmt"
	"html"
	"html/template"
	"math"
	"strconv"
	"strings"
)

// TokenLine renders the tokens as a heat strip: vals[t] as the background as the background (scaled by
// scale against the row's largest |value|) and its exact value in the
// title; tokens with checked[t] > 0 get the "checked" underline.
func TokenLine(toks []string, vals, checked []float64, sym string, scale func(x float64) string) template.HTML {
	top := 0.0
	for _, x := range vals {
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			top = max(top, math.Abs(x))
		}
	}
	var b strings.Builder
	for t, text := range toks {
		cls := "t"
		if text == "" {
			cls += " e"
		}
		title := "#" + strconv.Itoa(t)
		style := ""
		if t < len(vals) {
			x := vals[t]
			title += " " + sym + "=" + Exact(x)
			if top > 0 && !math.IsNaN(x) && !math.IsInf(x, 0) {
				rel := x / top
				style = scale(rel)
				if math.Abs(rel) > 0.6 {
					cls += " d"
				}
				if sym == "q" {
					title += " (" + strconv.FormatFloat(rel, 'f', 2, 64) + " of row max)"
				}
			}
		} else if vals != nil {
			title += " " + sym + ": not logged"
		}
		if t < len(checked) && checked[t] > 0 {
			cls += " in"
			title += " · checked ×" + Exact(checked[t])
		}
		b.WriteString(`<span class="` + cls + `"`)
		if style != "" {
			b.WriteString(` style="background:` + style + `"`)
		}
		b.WriteString(` title="` + html.EscapeString(title) + `">`)
		writeToken(&b, text)
		b.WriteString(`</span>`)
	}
	return template.HTML(b.String()) // built from escaped text and computed colours
}

// writeToken writes the token's text escaped and unchanged, wrapping
// whitespace in spans that CSS marks visibly (·, →, ↵) without adding
// characters to the text.
func writeToken(b *strings.Builder, text string) {
	for _, r := range text {
		switch r {
		case ' ':
			b.WriteString(`<span class="sp"> </span>`)
		case '\t':
			b.WriteString(`<span class="tb">` + "\t" + `</span>`)
		case '\n':
			b.WriteString(`<span class="nl">` + "\n" + `</span>`)
		case '\r':
			b.WriteString(`<span class="cr">` + "\r" + `</span>`)
		default:
			b.WriteString(html.EscapeString(string(r)))
		}
	}
}

// Sequential maps x in [0, 1] from white to a deep orange.
func Sequential(x float64) string {
	return mix([3]float64{255, 255, 255}, [3]float64{217, 72, 1}, math.Max(0, math.Min(1, x)))
}

// Diverging maps x in [−1, 1] to blue (negative), white (0), red (positive).
func Diverging(x float64) string {
	x = math.Max(-1, math.Min(1, x))
	if x < 0 {
		return mix([3]float64{255, 255, 255}, [3]float64{33, 102, 172}, -x)
	}
	return mix([3]float64{255, 255, 255}, [3]float64{178, 24, 43}, x)
}

// mix is the colour a fraction x of the way from a to b, as #rrggbb.
func mix(a, b [3]float64, x float64) string {
	var c [3]int
	for i := range c {
		c[i] = int(math.Round(a[i] + (b[i]-a[i])*x))
	}
	return fmt.Sprintf("#%02x%02x%02x", c[0], c[1], c[2])
}
