package main

import (
	"os"
	"runtime/debug"
)

// heapLimit is the Go heap's soft limit for a training run, 5/4 of the
// larger of its --memory-budget and twice its model's static step memory
// (weights, summed gradient and AdamW moments, 16 bytes a parameter).
// The budget covers the static memory and one micro-batch's activations
// as estimated; the quarter more is the collector's headroom (GOGC 25)
// and what the estimate leaves out (the sampler's caches, the tokenizer).
// SmolLM2-135M's step peaked at 5.8 GiB under the half-of-RAM limit with a
// live heap of at most ~4.3 GiB, twice its 2.15 GB static memory
// (docs/performance.md, "The RL step at 135M"): the floor keeps a model
// too large for the budget from being held below what it must hold. 0
// (no limit) for a budget of 0 (never split).
func heapLimit(budget int64, params int) int64 {
	if budget <= 0 {
		return 0
	}
	need := max(budget, 2*16*int64(params))
	return need + need/4
}

// limitHeap lowers the Go runtime's soft memory limit to limit: near it
// the collector runs more often instead of letting the heap grow. It never
// raises a lower limit, and leaves GOMEMLIMIT and a limit of 0 alone. It
// returns the limit set, or 0.
func limitHeap(limit int64) int64 {
	if limit <= 0 || os.Getenv("GOMEMLIMIT") != "" {
		return 0
	}
	if cur := debug.SetMemoryLimit(-1); cur <= limit {
		return 0
	}
	debug.SetMemoryLimit(limit)
	return limit
}
