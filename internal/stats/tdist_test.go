package stats

import (
	"encoding/json"
	"math"
	"os"
	"testing"
)

// tReference is testdata/t_quantiles.json, written by
// `/usr/bin/python3 scripts/tquantiles.py` from the finite trigonometric
// series of the t distribution (A&S 26.7.3/4): another algorithm than the
// continued fraction here, in the standard library only.
type tReference struct {
	Quantiles []struct{ DF, P, T float64 }
	Tails     []struct{ DF, T, Upper float64 }
}

func loadTReference(t *testing.T) tReference {
	t.Helper()
	raw, err := os.ReadFile("testdata/t_quantiles.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref tReference
	if err := json.Unmarshal(raw, &ref); err != nil {
		t.Fatal(err)
	}
	if len(ref.Quantiles) < 100 || len(ref.Tails) < 30 {
		t.Fatalf("reference holds %d quantiles and %d tails", len(ref.Quantiles), len(ref.Tails))
	}
	return ref
}

// TestTQuantileReference: TQuantile and TCDF agree with the series
// reference to a relative 1e-11 (the largest difference is about 4e-14)
// at 210 (df, p) and 36 (df, t) points, both tails.
func TestTQuantileReference(t *testing.T) {
	ref := loadTReference(t)
	worst := 0.0
	for _, r := range ref.Quantiles {
		for _, sign := range []float64{1, -1} {
			p := r.P
			if sign < 0 {
				p = 1 - r.P
			}
			got := TQuantile(p, r.DF)
			d := math.Abs(got-sign*r.T) / r.T
			worst = max(worst, d)
			if d > 1e-11 {
				t.Errorf("TQuantile(%v, %v) = %.15g, reference %.15g (relative %.2g)", p, r.DF, got, sign*r.T, d)
			}
		}
	}
	for _, r := range ref.Tails {
		// The lower tail TCDF(−t) keeps its digits; 1 − TCDF(t) only
		// keeps those 1 − ε allows.
		low, high := TCDF(-r.T, r.DF), 1-TCDF(r.T, r.DF)
		d := math.Abs(low-r.Upper) / r.Upper
		worst = max(worst, d)
		if d > 1e-11 || math.Abs(high-r.Upper) > 1e-15 {
			t.Errorf("tail at t = %v, df = %v: %.15g and %.15g, reference %.15g", r.T, r.DF, low, high, r.Upper)
		}
	}
	t.Logf("largest relative difference from the series reference: %.2g", worst)
}

// TestTQuantileClosedForms: for 1, 2 and 4 degrees of freedom the
// quantile has a closed form.
func TestTQuantileClosedForms(t *testing.T) {
	forms := []struct {
		df float64
		q  func(p float64) float64
	}{
		{1, func(p float64) float64 { return math.Tan(math.Pi * (p - 0.5)) }},
		{2, func(p float64) float64 { return (2*p - 1) / math.Sqrt(2*p*(1-p)) }},
		{4, func(p float64) float64 {
			a := 4 * p * (1 - p)
			q := math.Cos(math.Acos(math.Sqrt(a))/3) / math.Sqrt(a)
			return math.Copysign(2*math.Sqrt(q-1), p-0.5)
		}},
	}
	for _, f := range forms {
		for _, p := range []float64{0.001, 0.01, 0.025, 0.2, 0.45, 0.55, 0.9, 0.975, 0.995, 0.9999} {
			want, got := f.q(p), TQuantile(p, f.df)
			if math.Abs(got-want) > 1e-9*max(1, math.Abs(want)) {
				t.Errorf("df %v, p %v: %.15g, closed form %.15g", f.df, p, got, want)
			}
		}
	}
}

// TestTQuantileTable: the two-sided 95% critical values of a printed t
// table (three decimals), and the normal's 1.959964 far out.
func TestTQuantileTable(t *testing.T) {
	for _, c := range []struct{ df, t float64 }{
		{1, 12.706}, {2, 4.303}, {3, 3.182}, {4, 2.776}, {5, 2.571}, {9, 2.262},
		{10, 2.228}, {11, 2.201}, {14, 2.145}, {19, 2.093}, {30, 2.042}, {120, 1.980},
		{1e7, 1.960},
	} {
		if got := TQuantile(0.975, c.df); math.Abs(got-c.t) > 5e-4 {
			t.Errorf("t(0.975, %v) = %.6f, table %.3f", c.df, got, c.t)
		}
	}
	if got := TQuantile(0.975, 1e9); math.Abs(got-1.959963984540054) > 1e-6 {
		t.Errorf("t(0.975, 1e9) = %.9f, the normal's 1.959963985", got)
	}
}

// TestTCDFInverse: TCDF(TQuantile(p)) = p, also for degrees of freedom
// that are not whole, and the symmetry TCDF(−t) = 1 − TCDF(t).
func TestTCDFInverse(t *testing.T) {
	for _, df := range []float64{0.5, 1, 2.5, 7.3, 13, 60.5, 500} {
		for _, p := range []float64{1e-6, 0.003, 0.05, 0.3, 0.5, 0.7, 0.95, 0.999} {
			q := TQuantile(p, df)
			if got := TCDF(q, df); math.Abs(got-p) > 1e-12*max(p, 1e-3) {
				t.Errorf("df %v: TCDF(TQuantile(%v)) = %.15g", df, p, got)
			}
			if s := TCDF(-q, df) + TCDF(q, df); math.Abs(s-1) > 1e-14 {
				t.Errorf("df %v, t %v: TCDF(−t) + TCDF(t) = %.16g", df, q, s)
			}
		}
	}
}

func TestTDistributionBadInput(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		name string
		got  float64
		want float64
	}{
		{"quantile df 0", TQuantile(0.9, 0), nan},
		{"quantile df −1", TQuantile(0.9, -1), nan},
		{"quantile p 1.5", TQuantile(1.5, 3), nan},
		{"quantile p NaN", TQuantile(nan, 3), nan},
		{"quantile p 0", TQuantile(0, 3), math.Inf(-1)},
		{"quantile p 1", TQuantile(1, 3), math.Inf(1)},
		{"quantile p ½", TQuantile(0.5, 3), 0},
		{"cdf df NaN", TCDF(1, nan), nan},
		{"cdf t NaN", TCDF(nan, 2), nan},
		{"cdf +Inf", TCDF(math.Inf(1), 2), 1},
		{"cdf −Inf", TCDF(math.Inf(-1), 2), 0},
		{"cdf 0", TCDF(0, 2), 0.5},
	} {
		if !(c.got == c.want || math.IsNaN(c.got) && math.IsNaN(c.want)) {
			t.Errorf("%s: %v, want %v", c.name, c.got, c.want)
		}
	}
}
