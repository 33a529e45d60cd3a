// Package task defines what a multi-reward task is: a seeded prompt
// generator with disjoint train and test splits, demonstrations for
// supervised warm-up, and one verifier per reward. Tasks live in
// sub-packages (toolcall, sql, ifeval, arith, slots) and register themselves by
// name; programs import them for their side effect, as with image formats.
//
// It imports reward and internal/registry; the tasks themselves are its sub-
// packages.
package task
