package js

import (
	"encoding/binary"
	"math"
	randv1 "math/rand" // testing/quick takes a v1 generator
	"math/rand/v2"
	"testing"
	"testing/quick"

	"github.com/credo-rl/credo/internal/reftest"
)

func TestDivergenceTable(t *testing.T) {
	inf := float32(math.Inf(1))
	nan := float32(math.NaN())
	for _, tc := range []struct {
		name string
		p, q []float32
		want float64
	}{
		{"equal", []float32{0.2, 0.3, 0.5}, []float32{0.2, 0.3, 0.5}, 0},
		{"disjoint", []float32{1, 0, 0}, []float32{0, 1, 0}, 1},
		{"disjoint spread", []float32{0.5, 0.5, 0, 0}, []float32{0, 0, 0.25, 0.75}, 1},
		// m = [0.5, 0.25, 0.25]; KL(p‖m) = 0.5·ln 1 + 0.5·ln 2 = KL(q‖m);
		// JS = 0.5·ln 2 → 0.5 bits.
		{"half", []float32{0.5, 0.5, 0}, []float32{0.5, 0, 0.5}, 0.5},
		// m = [0.75, 0.25]; KL(p‖m) = ln(4/3); KL(q‖m) = 0.5·ln(2/3) + 0.5·ln 2
		// = 0.5·ln(4/3); JS = 0.75·ln(4/3) = 0.2157616 nats = 0.3112781 bits.
		{"quarter", []float32{1, 0}, []float32{0.5, 0.5}, 0.31127812445913283},
		{"both empty", nil, nil, 0},
		// A shorter slice is padded with zeros: [1] against [0, 1] is disjoint.
		{"short", []float32{1}, []float32{0, 1}, 1},
		// Bad entries count as 0: these are [1, 0] and [1, 0].
		{"bad entries", []float32{1, nan}, []float32{1, -inf}, 0},
		{"inf", []float32{inf, 1}, []float32{0, 1}, 0},
	} {
		got := Divergence(tc.p, tc.q)
		if !near(got, tc.want, 1e-7) { // float32 inputs
			t.Errorf("%s: Divergence = %.10g, want %.10g", tc.name, got, tc.want)
		}
	}
}

func TestDivergenceProperties(t *testing.T) {
	// testing/quick drives the seeds; each seed draws a pair of distributions.
	prop := func(seed uint64, size uint8) bool {
		rng := rand.New(rand.NewPCG(seed, 9))
		v := 1 + int(size)%50
		p, q := reftest.Distribution(rng, v), reftest.Distribution(rng, v)
		d := Divergence(p, q)
		if math.IsNaN(d) || d < 0 || d > 1 {
			t.Logf("JS = %v out of [0, 1] for %v, %v", d, p, q)
			return false
		}
		if Divergence(q, p) != d { // symmetric bit for bit
			t.Logf("asymmetric: %v vs %v", d, Divergence(q, p))
			return false
		}
		if Divergence(p, p) != 0 {
			return false
		}
		// Disjoint supports: 1 (when both have mass).
		a, b := make([]float32, 2*v), make([]float32, 2*v)
		copy(a, p)
		copy(b[v:], q)
		var ma, mb float32
		for j := range v {
			ma += p[j]
			mb += q[j]
		}
		if ma > 0 && mb > 0 && !near(Divergence(a, b), 1, 1e-6) {
			t.Logf("disjoint: %v", Divergence(a, b))
			return false
		}
		return true
	}
	if err := quick.Check(prop, &quick.Config{MaxCount: 2000, Rand: randv1.New(randv1.NewSource(1))}); err != nil {
		t.Error(err)
	}
}

// FuzzJSDivergence: any float32 bits give a number in [0, 1], symmetric.
func FuzzDivergence(f *testing.F) {
	f.Add([]byte{0, 0, 128, 63, 0, 0, 0, 0}, []byte{0, 0, 0, 0, 0, 0, 128, 63})
	f.Add([]byte{0, 0, 192, 127}, []byte{0, 0, 128, 255, 1, 0, 0, 0})
	f.Add([]byte{}, []byte{0, 0, 0, 63, 0, 0, 0, 63})
	f.Fuzz(func(t *testing.T, pb, qb []byte) {
		read := func(b []byte) []float32 {
			out := make([]float32, len(b)/4)
			for j := range out {
				out[j] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*j:]))
			}
			return out
		}
		p, q := read(pb), read(qb)
		d := Divergence(p, q)
		if math.IsNaN(d) || d < 0 || d > 1 {
			t.Fatalf("Divergence(%v, %v) = %v", p, q, d)
		}
		if e := Divergence(q, p); e != d {
			t.Fatalf("asymmetric: %v vs %v", d, e)
		}
	})
}

// The table logarithm inside jsSum agrees with math.Log: a pair (a, b)
// gives a·ln(a/m) + b·ln(b/m), compared with the same through math.Log.
func TestJSLogAccuracy(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for range 200000 {
		a := math.Exp(-20 * rng.Float64())
		b := a * math.Exp(rng.NormFloat64()*[]float64{1e-6, 1e-2, 1, 10}[rng.IntN(4)])
		a, b = float64(float32(a)), float64(float32(b))
		m := 0.5 * (a + b)
		want := a*math.Log(a/m) + b*math.Log(b/m)
		got := jsSum([]float32{float32(a)}, []float32{float32(b)})
		if math.Abs(got-want) > 1e-15*(a+b) {
			t.Fatalf("a=%v b=%v: table %v, math.Log %v", a, b, got, want)
		}
	}
}

// The vector path agrees with the scalar one, bad entries and tails included.
func TestJSVecMatchesScalar(t *testing.T) {
	if !vecJS {
		t.Skip("no vector path in this build or on this CPU")
	}
	rng := rand.New(rand.NewPCG(31, 32))
	bad := []float32{0, -1, float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 1e-45, math.MaxFloat32}
	for trial := range 20000 {
		v := rng.IntN(40)
		p, q := reftest.Distribution(rng, v), reftest.Distribution(rng, v)
		if trial%3 == 0 {
			copy(q, p[:v/2]) // partly equal
		}
		for j := range v {
			if rng.IntN(20) == 0 {
				p[j] = bad[rng.IntN(len(bad))]
			}
			if rng.IntN(20) == 0 {
				q[j] = bad[rng.IntN(len(bad))]
			}
		}
		got, want := jsSumVec(p, q), jsSum(p, q)
		if math.IsNaN(got) || math.Abs(got-want) > 1e-14*(1+math.Abs(want)) {
			t.Fatalf("trial %d: vector %v, scalar %v for %v, %v", trial, got, want, p, q)
		}
		if jsSumVec(p, p) != 0 {
			t.Fatalf("trial %d: vector JS(p, p) = %v", trial, jsSumVec(p, p))
		}
	}
}

func TestDistance(t *testing.T) {
	p, q := []float32{1, 0}, []float32{0.5, 0.5}
	if got, want := Distance(p, q), math.Sqrt(Divergence(p, q)); got != want || !near(got, math.Sqrt(0.31127812445913283), 1e-7) {
		t.Errorf("Distance = %v, want %v", got, want)
	}
}

// BenchmarkDivergence is one pair over a 300-token vocabulary, credit's
// benchmark size.
func BenchmarkDivergence(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	p, q := reftest.Distribution(rng, 300), reftest.Distribution(rng, 300)
	for b.Loop() {
		Divergence(p, q)
	}
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }
