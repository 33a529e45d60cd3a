// Package parallel runs independent pieces of one computation on every
// core: For for pieces that can fail, Each for many small ones that share
// per-worker scratch. Results never depend on scheduling: each piece
// writes only its own output, and For reports the lowest failed index.
//
// It imports only the standard library.
package parallel
