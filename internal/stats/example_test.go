package stats_test

import (
	"fmt"

	"github.com/credo-rl/credo/internal/stats"
)

// A method against a baseline over 3 warm-ups × 4 RL seeds: per-run AUC
// differences, grouped by warm-up. The effect moves between warm-ups
// (spread 0.010) more than the seeds of one warm-up do: taken as 12
// independent runs the interval is narrow, but with the warm-up as the
// unit there are 3 units, the interval includes 0, and the sign-flip test
// cannot go below p = 0.25.
func ExampleCompare() {
	runs := [][]float64{
		{0.031, 0.024, 0.040, 0.028}, // warm-up 1
		{0.012, 0.006, 0.015, 0.009}, // warm-up 2
		{0.020, 0.027, 0.018, 0.025}, // warm-up 3
	}
	for _, unit := range []stats.Unit{stats.UnitWarmup, stats.UnitRun} {
		p, err := stats.Compare(runs, unit, stats.Options{})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("unit %s, n = %d: %+.4f [%+.4f, %+.4f], t-test p %.4f, sign-flip p %.4f (min %.4f)\n",
			p.Unit, p.N, p.Mean, p.Lo, p.Hi, p.PT, p.Sign.P, p.Sign.Min)
		fmt.Printf("  warm-up spread %.4f, sign agrees on every warm-up: %v\n", p.WarmupSpread, p.SignAgrees)
	}
	// Output:
	// unit warm-up, n = 3: +0.0213 [-0.0040, +0.0465], t-test p 0.0687, sign-flip p 0.2500 (min 0.2500)
	//   warm-up spread 0.0102, sign agrees on every warm-up: true
	// unit run, n = 12: +0.0213 [+0.0150, +0.0275], t-test p 0.0000, sign-flip p 0.0005 (min 0.0005)
	//   warm-up spread 0.0102, sign agrees on every warm-up: true
}

// Holm over a table's comparisons: the smallest p-value faces α/m, the
// next α/(m − 1), and the first that fails stops the rejections.
func ExampleHolm() {
	ps := []float64{0.004, 0.030, 0.012, 0.20}
	reject, adjusted := stats.Holm(ps, 0.05)
	for i, p := range ps {
		fmt.Printf("p %.3f  adjusted %.3f  marked %v\n", p, adjusted[i], reject[i])
	}
	// Output:
	// p 0.004  adjusted 0.016  marked true
	// p 0.030  adjusted 0.060  marked false
	// p 0.012  adjusted 0.036  marked true
	// p 0.200  adjusted 0.200  marked false
}

// Five seeds that all favour the method: the exact sign-flip p-value is
// the smallest five units allow, 2/2⁵.
func ExampleSignFlip() {
	p := stats.SignFlip([]float64{0.010, 0.004, 0.007, 0.012, 0.002}, 0, 1)
	fmt.Printf("p %.4f, min %.4f, exact %v\n", p.P, p.Min, p.Exact)
	// Output:
	// p 0.0625, min 0.0625, exact true
}

// The 95% Student-t interval of five paired differences uses
// t_{0.975, 4} = 2.7764.
func ExampleTInterval() {
	iv := stats.TInterval([]float64{0.010, 0.004, 0.007, 0.012, 0.002}, 0.95)
	fmt.Printf("%.4f [%.4f, %.4f], t %.4f\n", iv.Mean, iv.Lo, iv.Hi, stats.TQuantile(0.975, 4))
	// Output:
	// 0.0070 [0.0019, 0.0121], t 2.7764
}
