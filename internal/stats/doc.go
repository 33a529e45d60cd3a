// Package stats holds the few statistics credo's reports need: means,
// areas under learning curves, and the comparison of two methods by paired
// differences: the Student-t interval and t-test (TInterval, TTest, on
// TQuantile and TCDF), the exact sign-flip permutation test (SignFlip),
// Holm's correction over a table's comparisons (Holm), and the two-level
// summary over warm-ups × RL seeds that states its unit (Compare). The
// percentile bootstrap (Bootstrap) is the interval credo used before: no
// table uses it now, and TestNullMarkedRate keeps it for contrast (on null
// data it excludes 0 far more often than 5% at the protocol's seed
// counts). Everything is seeded, so a report is the same every time.
//
// It imports only the standard library.
package stats
