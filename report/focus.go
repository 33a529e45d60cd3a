package report

import (
	"fmt"
	"strings"
)

// FocusNote states the calibration's focus figures in a sentence for the
// head of a table: for each counted reward with failed verdicts that quote
// part of their response, the share of a response they quote and the share
// of a uniform advantage's logit update already there (run.RewardStart's
// BlamedTokens and BlamedUniform). "" when none has them.
func FocusNote(c *Comparison) string {
	if c.Calibration == nil {
		return ""
	}
	var parts []string
	for _, r := range c.Calibration.Rewards {
		if r.Counted && r.Blamed > 0 {
			parts = append(parts, fmt.Sprintf("%s %.0f%% / %.0f%%", r.Reward, 100*r.BlamedTokens, 100*r.BlamedUniform))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "Focus, from the calibration (over each counted reward's failed verdicts: the share of a response they quote / the share of a uniform advantage's logit update already on it; " +
		"near 100%, GDPO's update is already where span's would be and token credit can add little; docs/results/focus.md): " +
		strings.Join(parts, ", ") + "."
}
