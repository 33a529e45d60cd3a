package report

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/credo-rl/credo/run"
)

// GatedWarmup is a warm-up the comparison's gate left out, and why.
type GatedWarmup struct {
	Index int
	Why   string
}

// applyGate leaves out of c the warm-ups whose calibration does not pass
// gate (run.Gate.Why): their calibrations here, their runs in LoadCompare
// (no run trained from them). A warm-up not yet calibrated stays.
func (c *Comparison) applyGate(gate run.Gate) {
	c.Gate = gate
	if len(gate) == 0 || len(c.Warmups) == 0 {
		return
	}
	var kept []run.ManifestWarmup
	var cals []*run.Calibration
	for _, w := range c.Warmups {
		cal := c.Calibrations[w.Index]
		if cal != nil {
			if why := gate.Why(*cal); why != "" {
				c.Gated = append(c.Gated, GatedWarmup{Index: w.Index, Why: why})
				delete(c.Calibrations, w.Index)
				continue
			}
			cals = append(cals, cal)
		}
		kept = append(kept, w)
	}
	c.Warmups, c.Calibration = kept, nil
	if len(cals) > 0 && len(cals) == len(kept) {
		c.Calibration = mergeCalibrations(cals)
	}
}

// gated says whether warm-up w was left out by the gate.
func (c *Comparison) gated(w int) bool {
	return slices.ContainsFunc(c.Gated, func(g GatedWarmup) bool { return g.Index == w })
}

// GateNote states the comparison's warm-up gate for the head of a table:
// the gate, each kept warm-up's localization at the start on its counted
// rewards, and the warm-ups left out with the reason. "" without a gate.
func GateNote(c *Comparison) string {
	if len(c.Gate) == 0 {
		return ""
	}
	var gate []string
	for _, m := range c.Gate.Methods() {
		gate = append(gate, fmt.Sprintf("%s ≥ %s", m, num(c.Gate[m], 2)))
	}
	s := "Warm-up gate, stated before the runs: a warm-up is used only when, on every reward its calibration counts, the localization at the start (relevance on the verifiers' checked tokens relative to uniform, over the calibration's samples) is " +
		strings.Join(gate, " and ") + "."
	var kept []string
	for _, w := range c.Warmups {
		cal := c.Calibrations[w.Index]
		if cal == nil {
			continue
		}
		var locs []string
		for _, r := range cal.Rewards {
			if !r.Counted {
				continue
			}
			for _, m := range slices.Sorted(maps.Keys(r.Localization)) {
				if _, gated := c.Gate[m]; gated {
					locs = append(locs, fmt.Sprintf("%s %s", r.Reward, num(r.Localization[m], 2)))
				}
			}
		}
		kept = append(kept, fmt.Sprintf("warm-up %d (%s)", w.Index, strings.Join(locs, ", ")))
	}
	if len(kept) > 0 {
		s += " Used: " + strings.Join(kept, "; ") + "."
	}
	if len(c.Gated) > 0 {
		var out []string
		for _, g := range c.Gated {
			out = append(out, fmt.Sprintf("warm-up %d (%s)", g.Index, g.Why))
		}
		s += fmt.Sprintf(" Left out, none of their runs trained or read (%d of %d): %s.", len(c.Gated), len(c.Gated)+len(c.Warmups), strings.Join(out, "; "))
	}
	return s
}
