package main

import (
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

// row is one shape's measurements; NaN marks a missing one.
type row struct {
	panel, xlabel, series, tick, shape string
	x                                  float64
	credoS, torchS, credoMiB, torchMiB float64
	raw                                []string // credo_s, torch_s, credo_mib, torch_mib as given
}

// panel is one sweep: its rows in input order.
type panel struct {
	title, xlabel string
	rows          []row
}

var columns = []string{"panel", "xlabel", "series", "x", "tick", "shape", "credo_s", "torch_s", "credo_mib", "torch_mib"}

// readRows parses the TSV and groups rows into panels in order of first
// appearance.
func readRows(r io.Reader) ([]*panel, error) {
	cr := csv.NewReader(r)
	cr.Comma = '\t'
	cr.Comment = '#'
	cr.FieldsPerRecord = len(columns)
	recs, err := cr.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("reading results: %w", err)
	}
	if len(recs) == 0 || strings.Join(recs[0], ",") != strings.Join(columns, ",") {
		return nil, fmt.Errorf("reading results: header must be %s", strings.Join(columns, " "))
	}
	var panels []*panel
	byTitle := map[string]*panel{}
	for i, rec := range recs[1:] {
		x, err := strconv.ParseFloat(rec[3], 64)
		if err != nil || x <= 0 {
			return nil, fmt.Errorf("results line %d: x %q: want a positive number", i+2, rec[3])
		}
		rw := row{panel: rec[0], xlabel: rec[1], series: rec[2], x: x, tick: rec[4], shape: rec[5], raw: rec[6:10]}
		vals := []*float64{&rw.credoS, &rw.torchS, &rw.credoMiB, &rw.torchMiB}
		for j, s := range rec[6:10] {
			*vals[j] = measurement(s)
		}
		p := byTitle[rw.panel]
		if p == nil {
			p = &panel{title: rw.panel, xlabel: rw.xlabel}
			byTitle[rw.panel] = p
			panels = append(panels, p)
		}
		p.rows = append(p.rows, rw)
	}
	if len(panels) == 0 {
		return nil, errors.New("reading results: no rows")
	}
	return panels, nil
}

// measurement is a positive number, or NaN for "-", "> 123 (killed)" and
// anything else that is not one.
func measurement(s string) float64 {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v <= 0 {
		return math.NaN()
	}
	return v
}

// writeTables prints one Markdown table per panel. ratio is PyTorch's
// seconds over credo's, as scripts/bench.sh states it: above 1, credo is
// faster.
func writeTables(w io.Writer, panels []*panel) {
	for _, p := range panels {
		fmt.Fprintf(w, "### %s\n\n", p.title)
		fmt.Fprintln(w, "| shape | credo s/step | PyTorch s/step | PyTorch ÷ credo | credo peak MiB | PyTorch peak MiB |")
		fmt.Fprintln(w, "| --- | ---: | ---: | ---: | ---: | ---: |")
		for _, r := range p.rows {
			ratio := "–"
			if q := r.torchS / r.credoS; !math.IsNaN(q) {
				ratio = fmt.Sprintf("**%.2f**", q)
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s |\n", r.shape,
				cell(r.raw[0], "%.3f"), cell(r.raw[1], "%.3f"), ratio, cell(r.raw[2], "%.0f"), cell(r.raw[3], "%.0f"))
		}
		fmt.Fprintln(w)
	}
}

// cell formats a number with format and passes anything else ("> 9000
// (killed)", "-") through.
func cell(s, format string) string {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return s
	}
	return fmt.Sprintf(format, v)
}

func main() {
	in := flag.String("in", "", "results TSV (default stdin)")
	svg := flag.String("svg", "", "write the plot here (default: no plot)")
	title := flag.String("title", "One AdamW training step: credo against PyTorch", "the plot's title")
	flag.Parse()
	if err := run(*in, *svg, *title, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "scalingplot:", err)
		os.Exit(1)
	}
}

func run(in, svgPath, title string, out io.Writer) error {
	r := io.Reader(os.Stdin)
	if in != "" {
		f, err := os.Open(in)
		if err != nil {
			return fmt.Errorf("opening results: %w", err)
		}
		defer f.Close()
		r = f
	}
	panels, err := readRows(r)
	if err != nil {
		return err
	}
	writeTables(out, panels)
	if svgPath == "" {
		return nil
	}
	if err := os.WriteFile(svgPath, []byte(plotSVG(panels, title)), 0o644); err != nil {
		return fmt.Errorf("writing plot: %w", err)
	}
	return nil
}
