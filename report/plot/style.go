package plot

import (
	"fmt"
	"html/template"
)

// palette is the Okabe–Ito colour-blind-safe set, one colour per method.
var palette = []string{"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#999933"}

// Color is the i-th method's colour.
func Color(i int) string { return palette[i%len(palette)] }

// dashes are the methods' line patterns (SVG stroke-dasharray), one per
// method beside its colour, so lines that coincide (GRPO and GDPO often
// do) still show both: a dashed line over a solid one leaves gaps.
var dashes = []string{"", "7 3", "2 2.5", "10 3 2 3", "4 4", "1.5 4", "14 3", "6 2 2 2 2 2"}

// Dash is the i-th method's pattern; methods past the patterns' count
// (more than 8) reuse them with another colour.
func Dash(i int) string { return dashes[i%len(dashes)] }

// Swatch is the i-th method's line for a legend: its colour and dash.
func Swatch(i int) template.HTML {
	return template.HTML(fmt.Sprintf(`<svg class="sw" width="30" height="8" aria-hidden="true"><line x1="0" y1="4" x2="30" y2="4" stroke="%s" stroke-width="2.2"%s/></svg>`,
		Color(i), dashAttr(Dash(i)))) // our own colour and numbers
}

// dashAttr is the stroke-dasharray attribute of pattern d ("" for none).
func dashAttr(d string) string {
	if d == "" {
		return ""
	}
	return ` stroke-dasharray="` + d + `"`
}
