// Package atomicfile writes files so that a reader, or a run killed at any
// moment, sees the old file or the new one, never a torn one.
//
// It imports only the standard library.
package atomicfile
