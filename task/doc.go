// Package task defines what a multi-reward task is: a seeded prompt
// generator with disjoint train and test splits, demonstrations for
// supervised warm-up, and one verifier per reward. Tasks live in
// sub-packages (toolcall, sql, ifeval, arith, slots) and register themselves by
// name; programs import them for their side effect, as with image formats.
//
// It imports reward and internal/registry, settings and redact; Build,
// Rewards and RewardsOf are the one place a task and its rewards (with
// any judges) are made from a configuration. The tasks themselves are its sub-
// packages.
//
// It needs no GoMLX (go list -deps names none), so another module may
// import it as a library: credo itself is built from its repository,
// whose go.mod replace binds the patched GoMLX backend (third_party/compute)
// in credo's own module only.
package task
