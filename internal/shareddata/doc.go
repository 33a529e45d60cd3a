// Package shareddata finds the benchmark data that tests read from
// ../shared/data beside the repository root (never copied into it).
//
// It imports only the standard library; only tests use it.
package shareddata
