// Package progress draws a one-line progress bar for long work: done/total,
// a bar, caller-supplied fields (loss, rewards, tokens/s), seconds per step
// and the time left. On a terminal it redraws in place; into a file or pipe
// it prints a line at most every few seconds, so logs stay short.
//
// It imports only the standard library.
package progress
