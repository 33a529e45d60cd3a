package main

import (
	"encoding/xml"
	"errors"
	"io"
	"math"
	"strings"
	"testing"
)

const header = "panel\txlabel\tseries\tx\ttick\tshape\tcredo_s\ttorch_s\tcredo_mib\ttorch_mib\n"

const sample = header +
	"model size\tparameters\t\t821888\t1M\tsize=1M,batch=16,seq=256\t0.35\t0.27\t210\t330\n" +
	"model size\tparameters\t\t10724736\t10M\tsize=10M,batch=16,seq=256\t2.2\t1.3\t900\t700\n" +
	"sequence length\ttokens\t1M\t128\t128\tsize=1M,batch=16,seq=128\t0.2\t0.1\t150\t300\n" +
	"sequence length\ttokens\t1M\t1024\t1024\tsize=1M,batch=16,seq=1024\t-\t1.6\t> 12288 (killed)\t3000\n" +
	"sequence length\ttokens\t10M\t128\t128\tsize=10M,batch=16,seq=128\t1.1\t0.7\t600\t500\n"

func TestReadRows(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		panels   []int // rows per panel
		err      bool
	}{
		{name: "sample", in: sample, panels: []int{2, 3}},
		{name: "comment lines skipped", in: "# measured today\n" + sample, panels: []int{2, 3}},
		{name: "no header", in: strings.SplitN(sample, "\n", 2)[1], err: true},
		{name: "header only", in: header, err: true},
		{name: "zero x", in: header + "p\tx\t\t0\t0\ts\t1\t1\t1\t1\n", err: true},
		{name: "short row", in: header + "p\tx\t\t1\t1\ts\t1\t1\t1\n", err: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			panels, err := readRows(strings.NewReader(tc.in))
			if (err != nil) != tc.err {
				t.Fatalf("error %v, want error %v", err, tc.err)
			}
			if len(panels) != len(tc.panels) {
				t.Fatalf("%d panels, want %d", len(panels), len(tc.panels))
			}
			for i, p := range panels {
				if len(p.rows) != tc.panels[i] {
					t.Errorf("panel %q has %d rows, want %d", p.title, len(p.rows), tc.panels[i])
				}
			}
		})
	}
}

func TestMissingMeasurementsAreNaN(t *testing.T) {
	panels, err := readRows(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	r := panels[1].rows[1]
	if !math.IsNaN(r.credoS) || !math.IsNaN(r.credoMiB) || r.torchS != 1.6 || r.torchMiB != 3000 {
		t.Errorf("row %+v: want credo NaN, NaN and torch 1.6, 3000", r)
	}
}

func TestWriteTables(t *testing.T) {
	panels, err := readRows(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	writeTables(&b, panels)
	for _, want := range []string{
		"### model size",
		"| size=1M,batch=16,seq=256 | 0.350 | 0.270 | **0.77** | 210 | 330 |",
		"| size=10M,batch=16,seq=256 | 2.200 | 1.300 | **0.59** | 900 | 700 |",
		"| size=1M,batch=16,seq=1024 | - | 1.600 | – | > 12288 (killed) | 3000 |",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("tables lack %q:\n%s", want, b.String())
		}
	}
}

func TestYTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		want   []float64
	}{
		{0.15, 3, []float64{0.2, 0.5, 1, 2}},
		{300, 450, []float64{300, 400}},                 // narrow: the finer set
		{0.0205, 0.0394, []float64{0.025, 0.03, 0.035}}, // narrower: the finest set
		{310, 340, []float64{310, 340}},                 // narrower still: the ends
	} {
		got := yTicks(tc.lo, tc.hi)
		if len(got) != len(tc.want) {
			t.Errorf("yTicks(%g, %g) = %v, want %v", tc.lo, tc.hi, got, tc.want)
			continue
		}
		for i := range got {
			if math.Abs(got[i]-tc.want[i]) > 1e-9*tc.want[i] {
				t.Errorf("yTicks(%g, %g) = %v, want %v", tc.lo, tc.hi, got, tc.want)
				break
			}
		}
	}
}

// TestPlotSVG checks the plot is well-formed XML with a line per side per
// series per metric where two or more points exist.
func TestPlotSVG(t *testing.T) {
	panels, err := readRows(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	svg := plotSVG(panels, "a & b")
	d := xml.NewDecoder(strings.NewReader(svg))
	lines := 0
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("plot is not well-formed XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "polyline" {
			lines++
		}
	}
	// Seconds: size 2 (credo, torch); sequence 1M: torch only (credo's
	// 1024 is missing), 10M: one point each, no line. Memory the same.
	if want := 2 * 3; lines != want {
		t.Errorf("%d polylines, want %d", lines, want)
	}
	for _, want := range []string{"a &amp; b", "seconds per step (log)", "peak RSS, MiB (log)", "PyTorch 1.13 + OpenBLAS", "10M model"} {
		if !strings.Contains(svg, want) {
			t.Errorf("plot lacks %q", want)
		}
	}
}
