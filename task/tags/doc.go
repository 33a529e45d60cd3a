// Package tags parses the tagged response formats tasks share, such as
// "<think>…</think><answer>…</answer>", and reports where in the response
// each part is, so a format verifier can say where it looked.
//
// It imports only the standard library.
//
// It needs no GoMLX (go list -deps names none).
package tags
