package plot

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func TestTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		n      int
		want   []float64
	}{
		{0, 1, 5, []float64{0, 0.2, 0.4, 0.6, 0.8, 1}},
		{1, 30, 6, []float64{0, 5, 10, 15, 20, 25, 30}},
		{0, 4.3, 5, []float64{0, 1, 2, 3, 4, 5}},
		{2, 2, 5, []float64{2}},
	} {
		if got := Ticks(tc.lo, tc.hi, tc.n); !slices.Equal(got, tc.want) {
			t.Errorf("Ticks(%v, %v, %d) = %v, want %v", tc.lo, tc.hi, tc.n, got, tc.want)
		}
	}
}

func TestChartSVG(t *testing.T) {
	nan := math.NaN()
	c := Chart{Title: "a <b>", HLine: 0.8, HLabel: "threshold", YMin: 0, YMax: 1, Series: []Series{
		{Name: "span", Color: "#009E73", Y: []float64{0.1, 0.2, nan, 0.4, 0.5},
			Lo: []float64{0.05, 0.1, nan, 0.3, 0.4}, Hi: []float64{0.15, 0.3, nan, 0.5, 0.6}},
		{Name: "grpo", Color: "#0072B2", Y: []float64{nan, 0.3, nan}},
	}}
	s := string(c.SVG())
	for _, want := range []string{
		`aria-label="a &lt;b&gt;"`,
		"<title>span, step 4: 0.4 (seeds 0.3 to 0.5)</title>",
		"<title>grpo, step 2: 0.3</title>",
		"<title>threshold 0.8</title>",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("svg lacks %q", want)
		}
	}
	// span: two segments (the gap at step 3), each a band and a line; grpo: one lone point.
	if n := strings.Count(s, "<polygon"); n != 2 {
		t.Errorf("%d bands, want 2", n)
	}
	if n := strings.Count(s, `stroke="#009E73"`); n != 2 {
		t.Errorf("%d span line segments, want 2", n)
	}
	if strings.Contains(s, "NaN") || strings.Contains(s, "Inf") {
		t.Error("a NaN or Inf coordinate reached the SVG")
	}
	if !strings.Contains(string(Chart{Title: "empty", HLine: math.NaN(), YMin: nan, YMax: nan}.SVG()), "</svg>") {
		t.Error("an empty chart did not render")
	}
}
