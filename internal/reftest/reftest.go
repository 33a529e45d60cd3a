package reftest

import (
	"math"
	"math/rand/v2"
	"testing"
)

// MaxDiff compares two flat arrays: it logs the largest absolute
// difference, relative to max(1, |want|), beside the tolerance, and fails
// t when it exceeds tol (a NaN counts as an infinite difference).
func MaxDiff(t testing.TB, what string, got, want []float32, tol float64) {
	t.Helper()
	worst := RelDiff(t, what, got, want)
	t.Logf("%-45s max diff %.2e (tolerance %.0e)", what, worst, tol)
	if worst > tol {
		t.Errorf("%s: max difference %.3e exceeds %.0e", what, worst, tol)
	}
}

// RelDiff is max |got − want| / max(1, |want|) over two flat arrays of the
// same length, +Inf for a NaN: MaxDiff's measure, for a caller that
// reports its own verdict.
func RelDiff(t testing.TB, what string, got, want []float32) float64 {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	worst := 0.0
	for i := range got {
		d := math.Abs(float64(got[i])-float64(want[i])) / math.Max(1, math.Abs(float64(want[i])))
		if math.IsNaN(d) {
			d = math.Inf(1)
		}
		worst = max(worst, d)
	}
	return worst
}

// Tokens reads a fixture's batch: token ids [B, T] (shape), right-padded
// and stored as float32 values, with each row's length. It returns the
// sequences and, for each, a mask of ones over its targets (one value per
// token after the first).
func Tokens(ids []float32, shape []int, lengths []float32) (seqs [][]int32, mask [][]float32) {
	B, T := shape[0], shape[1]
	seqs = make([][]int32, B)
	mask = make([][]float32, B)
	for i := range B {
		n := int(lengths[i])
		for j := range n {
			seqs[i] = append(seqs[i], int32(ids[i*T+j]))
		}
		mask[i] = make([]float32, n-1)
		for j := range mask[i] {
			mask[i][j] = 1
		}
	}
	return seqs, mask
}

// Row fails t unless got has want's length and every entry is within tol
// of want's (NaN matching NaN), naming each entry that is not.
func Row(t testing.TB, what string, got, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: got %d values %v, want %d %v", what, len(got), got, len(want), want)
	}
	for j := range got {
		if d := math.Abs(got[j] - want[j]); !(d <= tol) && !(math.IsNaN(got[j]) && math.IsNaN(want[j])) {
			t.Errorf("%s[%d] = %.12g, want %.12g (all: %v)", what, j, got[j], want[j], got)
		}
	}
}

// Distribution is a random distribution over v tokens with some exact
// zeros (about a third), as replay's next-token distributions have after
// float32 rounding: the input of JS tests and benchmarks.
func Distribution(rng *rand.Rand, v int) []float32 {
	p := make([]float32, v)
	var sum float32
	for j := range p {
		if rng.IntN(3) > 0 {
			p[j] = float32(rng.ExpFloat64())
			sum += p[j]
		}
	}
	for j := range p {
		if sum > 0 {
			p[j] /= sum
		}
	}
	return p
}
