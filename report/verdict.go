package report

import (
	"cmp"
	"math"
	"slices"

	"github.com/credo-rl/credo/internal/stats"
)

// The Holm families of a table: the comparisons corrected together.
const (
	// FamilyHeadline holds the headline rows' ΔAUC (each method's mean over
	// the counted rewards): each method that is not a baseline against
	// each baseline, and each baseline against the ones before it. With
	// one counted reward it is that reward's rows.
	FamilyHeadline = "headline"
	// FamilyReward holds the same comparisons on each counted reward, when
	// there is a headline row.
	FamilyReward = "per reward"
)

// Alpha is the family-wise error rate of a table's marks.
const Alpha = 0.05

// unit is what the table's intervals average over: the warm-ups' means
// when the runs come from several warm-ups (n = warm-ups; runs of one
// warm-up share its draw, so they are not independent when warm-ups move
// the effect: internal/stats' TestNullMarkedRate), else the runs.
func (c *Comparison) unit() stats.Unit {
	seen := map[int]bool{}
	for _, r := range c.Runs {
		seen[r.Warmup] = true
	}
	if len(seen) > 1 {
		return stats.UnitWarmup
	}
	return stats.UnitRun
}

// paired is stats.Compare of a[u] − b[u] over the units both have,
// grouped by warm-up.
func paired(a, b map[Unit]float64, unit stats.Unit) stats.Paired {
	var groups [][]float64
	last := 0
	for _, u := range sortedUnits(a) {
		v, ok := b[u]
		if !ok {
			continue
		}
		if len(groups) == 0 || u.Warmup != last {
			groups = append(groups, nil)
			last = u.Warmup
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], a[u]-v)
	}
	p, err := stats.Compare(groups, unit, stats.Options{})
	if err != nil { // the unit and options are this package's own
		panic("report: " + err.Error())
	}
	return p
}

// sortedUnits are m's units by warm-up, then seed.
func sortedUnits(m map[Unit]float64) []Unit {
	units := make([]Unit, 0, len(m))
	for u := range m {
		units = append(units, u)
	}
	slices.SortFunc(units, func(x, y Unit) int {
		if x.Warmup != y.Warmup {
			return x.Warmup - y.Warmup
		}
		return cmp.Compare(x.Seed, y.Seed)
	})
	return units
}

// sortedValues are m's values in unit order.
func sortedValues(m map[Unit]float64) []float64 {
	units := sortedUnits(m)
	out := make([]float64, len(units))
	for i, u := range units {
		out[i] = m[u]
	}
	return out
}

// test is one comparison of a family: row's method minus baseline.
type test struct {
	row  int
	base string
}

// canonical says whether row r's cell against baseline b is a comparison
// of its own: not the baseline against itself, and for two baselines only
// the later one against the earlier (the other cell is its mirror, the
// same test with the sign flipped).
func canonical(r Row, b string) bool {
	if r.Method == b {
		return false
	}
	im := slices.Index(r.Baselines, r.Method)
	return im < 0 || im > slices.Index(r.Baselines, b)
}

// familyTests are the comparisons of family fam that have a p-value
// (two or more paired units), in row order.
func familyTests(rows []Row, fam string) []test {
	var out []test
	for i, r := range rows {
		if r.Family != fam {
			continue
		}
		for _, b := range r.Baselines {
			if p, ok := r.DeltaAUC[b]; ok && canonical(r, b) && !math.IsNaN(p.PT) {
				out = append(out, test{i, b})
			}
		}
	}
	return out
}

// markFamilies assigns each counted row its family and marks, within each
// family, the differences whose t-test p-value passes Holm's correction
// at Alpha over the family's comparisons; a mirror cell (a baseline
// against a later one) takes its test's mark and adjusted p-value.
func markFamilies(rows []Row) {
	headline := slices.ContainsFunc(rows, func(r Row) bool { return r.Headline })
	for i := range rows {
		switch r := &rows[i]; {
		case r.Headline, !headline && r.Counted && countedRewards(rows) == 1:
			r.Family = FamilyHeadline
		case headline && r.Counted:
			r.Family = FamilyReward
		}
		rows[i].Marked, rows[i].Adjusted = map[string]bool{}, map[string]float64{}
	}
	for _, fam := range []string{FamilyHeadline, FamilyReward} {
		tests := familyTests(rows, fam)
		ps := make([]float64, len(tests))
		for k, t := range tests {
			ps[k] = rows[t.row].DeltaAUC[t.base].PT
		}
		reject, adjusted := stats.Holm(ps, Alpha)
		for k, t := range tests {
			r := &rows[t.row]
			r.Marked[t.base], r.Adjusted[t.base] = reject[k], adjusted[k]
			mirror := slices.IndexFunc(rows, func(x Row) bool {
				return x.Method == t.base && x.Reward == r.Reward && x.Headline == r.Headline
			})
			if mirror >= 0 && slices.Contains(r.Baselines, r.Method) {
				rows[mirror].Marked[r.Method], rows[mirror].Adjusted[r.Method] = reject[k], adjusted[k]
			}
		}
	}
}

// countedRewards is the number of distinct counted rewards among rows.
func countedRewards(rows []Row) int {
	var seen []string
	for _, r := range rows {
		if !r.Headline && r.Counted && !slices.Contains(seen, r.Reward) {
			seen = append(seen, r.Reward)
		}
	}
	return len(seen)
}
