package place

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// The fast paths of the cap and the diagnostics against the forms they
// replaced (kept here as references), bit for bit on random and adversarial
// rows.

// clipShiftRef is ClipShift as first written: a full sum per bisection step.
func clipShiftRef(d []float64, L float64) {
	n := len(d)
	if n == 0 {
		return
	}
	x := slices.Clone(d)
	slices.Sort(x)
	var target float64
	for _, v := range x {
		target += v
	}
	if L <= 0 {
		for t := range d {
			d[t] = target / float64(n)
		}
		return
	}
	f := func(lambda float64) float64 {
		var s float64
		for _, v := range x {
			s += min(L, max(-L, v+lambda))
		}
		return s
	}
	lo, hi := -L-x[n-1], L-x[0]
	for range 200 {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if f(mid) < target {
			lo = mid
		} else {
			hi = mid
		}
	}
	lambda := lo + (hi-lo)/2
	a := 0
	for a < n && x[a]+lambda <= -L {
		a++
	}
	b := n
	for b > a && x[b-1]+lambda >= L {
		b--
	}
	if b > a {
		free := target - float64(n-b)*L + float64(a)*L
		for _, v := range x[a:b] {
			free -= v
		}
		lambda = free / float64(b-a)
	}
	for t, v := range d {
		d[t] = min(L, max(-L, v+lambda))
	}
}

// concentrationRef is concentration as first written: a full sort.
func concentrationRef(q []float64) float64 {
	var total float64
	for _, x := range q {
		total += x
	}
	if !(total > 0) {
		return 0
	}
	s := slices.Clone(q)
	slices.Sort(s)
	goal := 0.8 * total * (1 - 1e-12)
	var run float64
	for j := len(s) - 1; j >= 0; j-- {
		run += s[j]
		if run >= goal {
			return float64(len(s)-j) / float64(len(s))
		}
	}
	return 1
}

// randomRow draws rows of the kinds the methods produce and some they do
// not: sparse spikes, flat rows, ties, huge and tiny magnitudes, zeros of
// both signs, rows summing to 0 exactly, infinities.
func randomRow(rng *rand.Rand) []float64 {
	n := 1 + rng.IntN(600)
	if rng.IntN(4) == 0 {
		n = 1 + rng.IntN(6)
	}
	d := make([]float64, n)
	scale := math.Pow(10, float64(rng.IntN(40)-20))
	kind := rng.IntN(7)
	for t := range d {
		switch kind {
		case 0: // spikes on a flat base
			d[t] = -0.1 * scale
			if rng.IntN(30) == 0 {
				d[t] = scale * rng.ExpFloat64() * 20
			}
		case 1: // few distinct values
			d[t] = scale * float64(rng.IntN(5)-2)
		case 2:
			d[t] = scale * rng.NormFloat64()
		case 3: // geometric tails, as span relevance has
			d[t] = scale * math.Pow(0.9, float64(rng.IntN(200)))
		case 4:
			d[t] = []float64{0, math.Copysign(0, -1), scale, -scale}[rng.IntN(4)]
		case 5:
			d[t] = scale * rng.Float64()
		default:
			d[t] = scale * rng.NormFloat64() * math.Pow(2, float64(rng.IntN(30)))
		}
	}
	if kind == 2 && rng.IntN(2) == 0 { // centre it, as Δ is
		var s float64
		for _, x := range d {
			s += x
		}
		for t := range d {
			d[t] -= s / float64(n)
		}
	}
	if rng.IntN(50) == 0 {
		d[rng.IntN(n)] = math.Inf(1 - 2*rng.IntN(2))
	}
	return d
}

func TestClipShiftMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	var p Placer
	for trial := range 20000 {
		d := randomRow(rng)
		var maxAbs float64
		for _, x := range d {
			if !math.IsInf(x, 0) {
				maxAbs = max(maxAbs, math.Abs(x))
			}
		}
		L := maxAbs * []float64{0, 0.01, 0.3, 0.9, 1, 1.5, rng.Float64()}[rng.IntN(7)]
		if trial%97 == 0 {
			L = math.Inf(1)
		}
		got, want := slices.Clone(d), slices.Clone(d)
		p.ClipShift(got, L)
		clipShiftRef(want, L)
		for j := range got {
			if math.Float64bits(got[j]) != math.Float64bits(want[j]) && !(math.IsNaN(got[j]) && math.IsNaN(want[j])) {
				t.Fatalf("trial %d (n %d, L %v): entry %d is %v, want %v", trial, len(d), L, j, got[j], want[j])
			}
		}
	}
}

func TestConcentrationMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 11))
	var scratch []float64
	for trial := range 20000 {
		q := randomRow(rng)
		for t := range q {
			q[t] = math.Abs(q[t])
		}
		var got float64
		got, scratch = Concentration(q, scratch)
		if want := concentrationRef(q); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("trial %d (n %d): %v, want %v", trial, len(q), got, want)
		}
	}
}
