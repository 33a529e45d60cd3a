package prm

import (
	"math"
	"testing"
)

func TestAUC(t *testing.T) {
	T, F := true, false
	for _, tc := range []struct {
		name   string
		scores []float64
		labels []bool
		want   float64
	}{
		{"perfect", []float64{0.1, 0.2, 0.8, 0.9}, []bool{F, F, T, T}, 1},
		{"reversed", []float64{0.9, 0.8, 0.2, 0.1}, []bool{F, F, T, T}, 0},
		{"all tied", []float64{1, 1, 1, 1}, []bool{F, T, F, T}, 0.5},
		{"one tie across classes", []float64{0.1, 0.5, 0.5, 0.9}, []bool{F, F, T, T}, 0.875},
		// pairs (pos, neg): (0.4,0.3)>, (0.4,0.6)<, (0.7,0.3)>, (0.7,0.6)> → 3/4
		{"mixed", []float64{0.3, 0.4, 0.6, 0.7}, []bool{F, T, F, T}, 0.75},
		{"ties within a class", []float64{2, 2, 1, 1, 1}, []bool{T, T, F, F, T}, 5.0 / 6}, // 4 wins, 2 ties
		{"negative logits", []float64{-3, -1, -2}, []bool{F, T, F}, 1},
	} {
		got, err := AUC(tc.scores, tc.labels)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: AUC %g, want %g", tc.name, got, tc.want)
		}
	}
	for _, tc := range []struct {
		name   string
		scores []float64
		labels []bool
	}{
		{"one class", []float64{1, 2}, []bool{T, T}},
		{"empty", nil, nil},
		{"lengths", []float64{1}, []bool{T, F}},
		{"NaN", []float64{math.NaN(), 1}, []bool{T, F}},
	} {
		if _, err := AUC(tc.scores, tc.labels); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

// TestAUCBruteForce checks the rank formula against counting pairs.
func TestAUCBruteForce(t *testing.T) {
	scores := []float64{3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9}
	labels := []bool{true, false, true, true, false, true, false, false, true, false, true, false, true, true, false}
	var num, den float64
	for i := range scores {
		for j := range scores {
			if labels[i] && !labels[j] {
				den++
				switch {
				case scores[i] > scores[j]:
					num++
				case scores[i] == scores[j]:
					num += 0.5
				}
			}
		}
	}
	got, err := AUC(scores, labels)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got-num/den) > 1e-12 {
		t.Errorf("AUC %g, pair count %g", got, num/den)
	}
}

func TestSpearman(t *testing.T) {
	for _, tc := range []struct {
		name string
		x, y []float64
		want float64
		ok   bool
	}{
		{"monotone", []float64{1, 2, 3, 4}, []float64{10, 20, 25, 100}, 1, true},
		{"reversed", []float64{1, 2, 3}, []float64{3, 2, 1}, -1, true},
		// ranks x = 1,2,3,4; y = 2,1,4,3: 1 − 6·Σd²/(n(n²−1)) = 1 − 6·4/60
		{"swaps", []float64{1, 2, 3, 4}, []float64{2, 1, 4, 3}, 0.6, true},
		// ties: y ranks 1.5, 1.5, 3 → Pearson of (1,2,3) and (1.5,1.5,3)
		{"ties", []float64{1, 2, 3}, []float64{5, 5, 7}, math.Sqrt(3) / 2, true},
		{"constant", []float64{1, 2, 3}, []float64{4, 4, 4}, 0, false},
		{"one pair", []float64{1}, []float64{2}, 0, false},
		{"lengths", []float64{1, 2}, []float64{1}, 0, false},
	} {
		got, ok := Spearman(tc.x, tc.y)
		if ok != tc.ok || math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: Spearman = %g, %v; want %g, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}
