package run

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Gate is a comparison's warm-up gate, method → least localization: a
// warm-up is used only when, on every reward its calibration counts, each
// named method's localization at the start (RewardStart.Localization) is
// at least the value. MRTPO's credit comes from what the policy reads in
// its verifier blocks, and on a warm-up whose policy does not read them its
// relevance lands nowhere in particular: the gate states before the runs
// which warm-ups can test the method at all.
type Gate map[string]float64

// Methods are the gate's methods, sorted.
func (g Gate) Methods() []string { return slices.Sorted(maps.Keys(g)) }

// String is g as ParseGate reads it: "method=value,…", methods sorted.
func (g Gate) String() string {
	var parts []string
	for _, m := range g.Methods() {
		parts = append(parts, fmt.Sprintf("%s=%g", m, g[m]))
	}
	return strings.Join(parts, ",")
}

// Why is "" when cal passes the gate, else the reasons it does not, one
// per failing (method, reward). A calibration that counts no reward fails
// (it could test no method), and one without the methods' localization
// (made before the gate) fails, naming what is missing. An empty gate
// passes everything.
func (g Gate) Why(cal Calibration) string {
	if len(g) == 0 {
		return ""
	}
	if len(cal.Counted()) == 0 {
		return "it counts no reward"
	}
	var why []string
	for _, m := range g.Methods() {
		if !slices.Contains(cal.Localized, m) {
			why = append(why, fmt.Sprintf("its calibration does not measure %s's localization", m))
			continue
		}
		for _, r := range cal.Rewards {
			if !r.Counted {
				continue
			}
			loc, ok := r.Localization[m]
			switch {
			case !ok:
				why = append(why, fmt.Sprintf("%s's localization on %s is undefined", m, r.Reward))
			case !(loc >= g[m]):
				why = append(why, fmt.Sprintf("%s's localization on %s is %.2f < %g", m, r.Reward, loc, g[m]))
			}
		}
	}
	return strings.Join(why, "; ")
}

// ParseGate reads "method=value,…", each value a positive number.
func ParseGate(s string) (Gate, error) {
	g := Gate{}
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part == "" {
			continue
		}
		name, val, ok := strings.Cut(part, "=")
		v, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
		if !ok || name == "" || err != nil || !(v > 0) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("gate %q: want method=least localization, a positive number, such as mrtpo=2", part)
		}
		if _, dup := g[strings.TrimSpace(name)]; dup {
			return nil, fmt.Errorf("gate: %s given twice", name)
		}
		g[strings.TrimSpace(name)] = v
	}
	return g, nil
}
