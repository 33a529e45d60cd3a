package report

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/credo-rl/credo/run"
)

// BlockFigures are a warm-up's block diagnostic as its warmup.json records
// it (replay.BlockReport, which report does not import): whether the policy
// reads the information blocks MRTPO's replay removes, without which replay
// has nothing to localize.
type BlockFigures struct {
	// RightOverWrong = log p(reference | own blocks) − log p(reference |
	// another prompt's blocks), nats per token.
	RightOverWrong float64 `json:"right_over_wrong"`
	// PositionShareHead = 1 − Σ neutral JS / Σ removal JS over the first
	// response tokens (the equal-length control); nil when not measured.
	PositionShareHead *float64 `json:"position_share_head"`
}

// loadBlocks reads each warm-up's block diagnostic into c.Blocks, by
// warm-up index (0 for a comparison's one warm-up). A warm-up without
// warmup.json, or whose task writes no references (no "blocks"), has none.
func (c *Comparison) loadBlocks() error {
	read := func(dir string, i int) error {
		rec, err := readOptional[run.WarmupRecord[struct{}, struct {
			Blocks *BlockFigures `json:"blocks"`
		}]](c.Dir, filepath.Join(dir, run.WarmupFile))
		if err != nil {
			return err
		}
		if rec != nil && rec.Report.Blocks != nil {
			if c.Blocks == nil {
				c.Blocks = map[int]BlockFigures{}
			}
			c.Blocks[i] = *rec.Report.Blocks
		}
		return nil
	}
	if len(c.Warmups) == 0 {
		if c.Warmup == "" {
			return nil
		}
		dir := c.Warmup
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(c.Dir, dir)
		}
		return read(dir, 0)
	}
	for _, w := range c.Warmups {
		if err := read(filepath.Join(c.Dir, w.Dir), w.Index); err != nil {
			return err
		}
	}
	return nil
}

// BlocksNote states the warm-ups' block diagnostic in a sentence for the
// head of a table: right − wrong per warm-up and, where measured, how much
// of replay's relevance on the first response tokens is position rather
// than information (the equal-length control). "" when no warm-up has one.
func BlocksNote(c *Comparison) string {
	if len(c.Blocks) == 0 {
		return ""
	}
	idx := make([]int, 0, len(c.Blocks))
	for i := range c.Blocks {
		idx = append(idx, i)
	}
	slices.Sort(idx)
	name := func(i int) string {
		if i == 0 {
			return "the warm-up"
		}
		return fmt.Sprintf("warm-up %d", i)
	}
	var row, pos []string
	for _, i := range idx {
		b := c.Blocks[i]
		row = append(row, fmt.Sprintf("%s %s", name(i), num(b.RightOverWrong, 3)))
		if p := b.PositionShareHead; p != nil && !math.IsNaN(*p) {
			pos = append(pos, fmt.Sprintf("%s %s", name(i), num(*p, 2)))
		}
	}
	s := "Block diagnostic (does the policy read the information blocks replay removes? right − wrong: the reference's log-probability per token with its own blocks minus with another prompt's, nats; near 0: replay has little to localize): " +
		strings.Join(row, ", ") + "."
	if len(pos) > 0 {
		s += " Equal-length control, the share of replay's relevance on the first response tokens that is position rather than information " +
			"(1 − JS with the block replaced by neutral text of its length ÷ JS with it removed; ≤ 0: none is position, the neutral text moves the policy at least as much): " +
			strings.Join(pos, ", ") + "."
	}
	return s
}
