// Package place is the arithmetic of placement (ALGORITHMS.md §2): how a
// reward's relevance q over a response's tokens becomes weights of mean one
// (Placer.Weights, capped per reward by water-filling), how the summed
// reallocation is bounded (Placer.CapSum, Placer.ClipShift: a projection
// that keeps the row's sum), and the two measures credit logs of any
// relevance row: Concentration (the share of tokens holding 80% of q) and
// Localization (q's share on the tokens a verifier checked, over their
// share of the tokens). Each fast path equals the form it replaced bit for
// bit (fastpath_test.go keeps those forms as references).
//
// It imports only the standard library.
//
// It needs no GoMLX (go list -deps names none).
package place
