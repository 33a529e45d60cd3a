// Package js is the Jensen–Shannon divergence of two next-token
// distributions, the replay source's relevance (ALGORITHMS.md §2): the
// divergence in bits, JS/ln 2 ∈ [0, 1], and the distance √(JS/ln 2) the
// MRTPO paper names. It is the one loop of any size in replay credit (T·V
// per replayed pair), so the sum has a vector path (AVX2, GOEXPERIMENT=simd)
// beside the scalar reference it matches, and a table logarithm accurate to
// 1e-15 of math.Log's.
//
// It imports only the standard library.
//
// It needs no GoMLX (go list -deps names none).
package js
