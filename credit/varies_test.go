package credit

import (
	"math"
	"slices"
	"testing"

	"github.com/credo-rl/credo/internal/stats"
	"github.com/credo-rl/credo/reward"
)

func TestVaries(t *testing.T) {
	for _, tc := range []struct {
		name   string
		scores []float64
		skip   []bool
		groups []int
		want   []bool
	}{
		{"one value", []float64{1, 1, 0, 1}, nil, []int{0, 0, 1, 1}, []bool{false, false, true, true}},
		{"skipped scores count as 0", []float64{1, 1, 1, 1}, []bool{false, true, true, true}, []int{0, 0, 1, 1}, []bool{true, true, false, false}},
		{"groups by id, not by position", []float64{0, 0, 1, 1}, nil, []int{7, 3, 7, 3}, []bool{true, true, true, true}},
		{"a group of one", []float64{0.5}, nil, []int{2}, []bool{false}},
		{"empty", nil, nil, nil, []bool{}},
	} {
		if got := Varies(tc.scores, tc.skip, tc.groups); !slices.Equal(got, tc.want) {
			t.Errorf("%s: Varies = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestZeroVariance(t *testing.T) {
	v := func(s float64) reward.Verdict { return reward.Verdict{Score: s} }
	sk := reward.Verdict{Skip: true}
	for _, tc := range []struct {
		name     string
		verdicts []reward.Verdict
		groups   []int
		share    float64
		applies  int
	}{
		{"half", []reward.Verdict{v(1), v(1), v(0), v(1)}, []int{0, 0, 1, 1}, 0.5, 2},
		{"skipped groups are not counted", []reward.Verdict{v(1), v(1), sk, sk}, []int{0, 0, 1, 1}, 1, 1},
		{"a skip beside agreeing scores varies", []reward.Verdict{v(1), sk, v(1), v(1)}, []int{0, 0, 1, 1}, 0.5, 2},
		{"applies nowhere", []reward.Verdict{sk, sk}, []int{0, 0}, 0, 0},
	} {
		share, applies := ZeroVariance(tc.verdicts, tc.groups)
		if share != tc.share || applies != tc.applies {
			t.Errorf("%s: ZeroVariance = %v, %d; want %v, %d", tc.name, share, applies, tc.share, tc.applies)
		}
	}
}

// TestNormMeanStdGroupOfOne: normalization gives a single value std 1
// (ALGORITHMS.md), where metrics (stats.MeanStd) give it 0; for more
// values the two agree.
func TestNormMeanStdGroupOfOne(t *testing.T) {
	if m, s := normMeanStd([]float64{0.3}, nil); m != 0.3 || s != 1 {
		t.Errorf("one value: %v, %v; want 0.3, 1", m, s)
	}
	if _, s := stats.MeanStd([]float64{0.3}); s != 0 {
		t.Errorf("stats.MeanStd of one value: std %v, want 0", s)
	}
	x := []float64{0.1, 0.9, 0.4, 0.4}
	m1, s1 := normMeanStd(x, []int{0, 1, 2})
	m2, s2 := stats.MeanStd(x[:3])
	if math.Abs(m1-m2) > 1e-15 || math.Abs(s1-s2) > 1e-15 {
		t.Errorf("three values: %v, %v against %v, %v", m1, s1, m2, s2)
	}
}
