package report

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/credo-rl/credo/internal/stats"
)

// flatRun is a run whose reward a is v at every step (its AUC is v).
func flatRun(method string, warmup int, seed uint64, v float64) *Run {
	r := runOf(method, seed, 2, map[string][]float64{"reward/a/mean": {v, v}})
	r.Warmup = warmup
	return r
}

// TestPairedUnit: with several warm-ups the unit is the warm-up's mean
// difference (n = warm-ups), with one it is the run; every figure is worked
// out by hand. span − gdpo per run: warm-up 1 {0.02, 0.04}, 2 {0.01, 0.03},
// 3 {0.05, 0.03}.
func TestPairedUnit(t *testing.T) {
	diffs := [][]float64{{0.02, 0.04}, {0.01, 0.03}, {0.05, 0.03}}
	for _, tc := range []struct {
		name           string
		warmups        bool
		unit           stats.Unit
		n              int
		lo, hi, pt, ps float64
		cells          []string
	}{
		// Units 0.03, 0.02, 0.04: mean 0.03, s 0.01, t_{0.975,2} = 4.30265,
		// half-width 4.30265·0.01/√3 = 0.024841; t = 0.03/(0.01/√3) = 5.19615,
		// p = 1 − t/√(t² + 2) = 0.035099 (the df 2 closed form); sign-flip
		// p = 2/2³ (only +++ and −−− reach |Σ| = 0.09); spread 0.01, the
		// sign the same on the 3 warm-ups. One comparison (m = 1): marked.
		{"three warm-ups", true, stats.UnitWarmup, 3, 0.005158622882496688, 0.05484137711750331, 0.03509871864598457, 0.25,
			[]string{"| span | a | — | 0.530 | +0.030 [+0.005, +0.055] p=0.25 pt=0.0351* | sd 0.010, 3/3 |", "the unit is the warm-up (n = 3)", "m = 1 (span − gdpo) on a"}},
		// The same six differences as runs of one warm-up: mean 0.03, s =
		// √(0.001/5) = 0.014142, t_{0.975,5} = 2.57058, half-width 0.014841;
		// t = 5.19615 with 5 degrees of freedom, p = 0.0034782 (the odd-df
		// closed form); sign-flip p = 2/2⁶ = 0.03125.
		{"one warm-up", false, stats.UnitRun, 6, 0.015158738852214115, 0.04484126114778588, 0.0034781651152866466, 0.03125,
			[]string{"| span | a | — | 0.530 | +0.030 [+0.015, +0.045] p=0.0312 pt=0.00348* | 1 (6/6) |", "the unit is the run (n = 6 seeds)", "covers RL-seed noise only"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &Comparison{Methods: []string{"gdpo", "span"}, Threshold: 0.5, Window: 1}
			seed := uint64(0)
			for w, ds := range diffs {
				for _, d := range ds {
					seed++
					warmup := 0
					if tc.warmups {
						warmup = w + 1
					}
					c.Runs = append(c.Runs, flatRun("gdpo", warmup, seed, 0.5), flatRun("span", warmup, seed, 0.5+d))
				}
			}
			rows := Table(c)
			p := rows[1].DeltaAUC["gdpo"]
			if p.Unit != tc.unit || p.N != tc.n || !near(p.Mean, 0.03) || !near(p.Lo, tc.lo) || !near(p.Hi, tc.hi) || !near(p.PT, tc.pt) || !near(p.Sign.P, tc.ps) {
				t.Errorf("span − gdpo %+v\nwant unit %s n %d mean 0.03 [%v, %v] p_t %v sign-flip %v", p, tc.unit, tc.n, tc.lo, tc.hi, tc.pt, tc.ps)
			}
			if tc.warmups && (!near(p.WarmupSpread, 0.01) || !p.SignAgrees) {
				t.Errorf("warm-up spread %v, sign agrees %v; want 0.01, true", p.WarmupSpread, p.SignAgrees)
			}
			if !rows[1].Marked["gdpo"] || rows[1].Family != FamilyHeadline {
				t.Errorf("one comparison with p %v: want it marked in the headline family, got %v %q", p.PT, rows[1].Marked, rows[1].Family)
			}
			md := Markdown(rows)
			for _, want := range tc.cells {
				if !strings.Contains(md, want) {
					t.Errorf("Markdown lacks %q:\n%s", want, md)
				}
			}
			if hasWarmupCol := strings.Contains(md, "warm-ups vs gdpo"); hasWarmupCol != tc.warmups {
				t.Errorf("warm-up column shown %v, want %v", hasWarmupCol, tc.warmups)
			}
		})
	}
}

// holmRows are a comparison of grpo, gdpo (the baselines), span and
// mrtpo on rewards a and b with their headline rows, each ΔAUC's t-test
// p-value given: headline[m] and perReward[m][k] for method m against
// grpo and gdpo.
func holmRows(headline map[string][2]float64, perReward map[string][2][2]float64) []Row {
	bases := []string{"grpo", "gdpo"}
	var rows []Row
	for _, m := range []string{"grpo", "gdpo", "span", "mrtpo"} {
		for k, reward := range []string{"a", "b", HeadlineReward} {
			r := Row{Method: m, Reward: reward, Headline: reward == HeadlineReward, Counted: true, Baselines: bases,
				DeltaAUC: map[string]stats.Paired{}, Start: math.NaN()}
			if r.Headline {
				r.Rewards = []string{"a", "b"}
			}
			for j, b := range bases {
				if m == b {
					continue
				}
				p := headline[m][j]
				if !r.Headline {
					p = perReward[m][k][j]
				}
				r.DeltaAUC[b] = stats.Paired{Unit: stats.UnitRun, N: 5, Mean: 0.01, Lo: 0, Hi: 0.02, PT: p, Sign: stats.Permutation{P: 0.0625, Exact: true}}
			}
			rows = append(rows, r)
		}
	}
	return rows
}

// TestHolmMarks: marks use the family's m, not each test alone. The
// headline family is gdpo − grpo, span − grpo, span − gdpo, mrtpo − grpo,
// mrtpo − gdpo (m = 5; grpo − gdpo is gdpo − grpo's mirror, not another
// test) and the per-reward family those on a and b (m = 10). Every p-value
// here is below 0.05, so a table without a correction would mark all.
func TestHolmMarks(t *testing.T) {
	headline := map[string][2]float64{
		"gdpo":  {0.30},         // against grpo; its mirror is grpo's cell against gdpo
		"span":  {0.004, 0.011}, // 0.004·5 = 0.02 and 0.011·4 = 0.044: marked
		"mrtpo": {0.02, 0.04},   // 0.02·3 = 0.06 > 0.05: Holm stops here
	}
	perReward := map[string][2][2]float64{
		// sorted: 0.001·10, 0.002·9, 0.004·8 = 0.032, 0.0045·7 = 0.0315 (the
		// running max keeps 0.032), then 0.009·6 = 0.054: stop.
		"gdpo":  {{0.5}, {0.6}},
		"span":  {{0.001, 0.002}, {0.004, 0.0045}},
		"mrtpo": {{0.009, 0.03}, {0.04, 0.045}},
	}
	rows := holmRows(headline, perReward)
	markFamilies(rows)
	if n := len(familyTests(rows, FamilyHeadline)); n != 5 {
		t.Errorf("headline m = %d, want 5", n)
	}
	if n := len(familyTests(rows, FamilyReward)); n != 10 {
		t.Errorf("per-reward m = %d, want 10", n)
	}
	marked := func(m, reward, b string) (bool, float64) {
		i := slices.IndexFunc(rows, func(r Row) bool { return r.Method == m && r.Reward == reward })
		return rows[i].Marked[b], rows[i].Adjusted[b]
	}
	for _, c := range []struct {
		m, reward, b string
		want         bool
		adjusted     float64
	}{
		{"span", HeadlineReward, "grpo", true, 0.02},
		{"span", HeadlineReward, "gdpo", true, 0.044},
		{"mrtpo", HeadlineReward, "grpo", false, 0.06},
		{"mrtpo", HeadlineReward, "gdpo", false, 0.08},
		{"gdpo", HeadlineReward, "grpo", false, 0.30},
		{"grpo", HeadlineReward, "gdpo", false, 0.30}, // the mirror
		{"span", "a", "grpo", true, 0.01},
		{"span", "a", "gdpo", true, 0.018},
		{"span", "b", "grpo", true, 0.032},
		{"span", "b", "gdpo", true, 0.032},
		{"mrtpo", "a", "grpo", false, 0.054},
		{"mrtpo", "b", "gdpo", false, 0.16}, // 0.045·3 = 0.135, below the running max 0.16
	} {
		got, adj := marked(c.m, c.reward, c.b)
		if got != c.want || !near(adj, c.adjusted) {
			t.Errorf("%s/%s − %s: marked %v (Holm-adjusted p %v), want %v (%v)", c.m, c.reward, c.b, got, adj, c.want, c.adjusted)
		}
	}
	note := marksNote(rows, layout{units: 5, unit: stats.UnitRun})
	for _, want := range []string{
		"headline, m = 5 (gdpo − grpo, span − grpo, span − gdpo, mrtpo − grpo, mrtpo − gdpo) on the mean of the counted rewards",
		"per reward, m = 10 (gdpo − grpo, span − grpo, span − gdpo, mrtpo − grpo, mrtpo − gdpo) on each of a, b",
	} {
		if !strings.Contains(note, want) {
			t.Errorf("note lacks %q:\n%s", want, note)
		}
	}
	if s := verdict(rows, layout{units: 5, unit: stats.UnitRun}); !strings.Contains(s, "(m = 5): span − grpo = +0.010 [+0.000, +0.020], span − gdpo") || strings.Contains(s, "mrtpo −") {
		t.Errorf("verdict %q", s)
	}
}
