package main

import (
	"os"
	"runtime/debug"
)

// limitToBudget lowers the Go runtime's soft memory limit to what a
// training run's --memory-budget allows, budget × 5/4: the budget covers
// the weights, gradient, AdamW moments and one micro-batch's activations
// as estimated; the quarter more is the collector's headroom (GOGC 25)
// and what the estimate leaves out (the sampler's caches, the tokenizer).
// Near the limit the collector runs more often instead of letting the heap
// grow: SmolLM2-135M's RL step peaked at 5.8 GiB under the half-of-RAM
// limit with a live heap of at most ~4.3 GiB (docs/performance.md, "The RL
// step at 135M"). It never raises a lower limit, and leaves GOMEMLIMIT and
// a budget of 0 (never split) alone. It returns the limit set, or 0.
func limitToBudget(budget int64) int64 {
	if budget <= 0 || os.Getenv("GOMEMLIMIT") != "" {
		return 0
	}
	limit := budget + budget/4
	if cur := debug.SetMemoryLimit(-1); cur <= limit {
		return 0
	}
	debug.SetMemoryLimit(limit)
	return limit
}
