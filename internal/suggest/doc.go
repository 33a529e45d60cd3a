// Package suggest finds the known name closest to a mistyped one, for
// "did you mean" hints in errors about unknown flags, commands, tasks
// and methods. It needs no GoMLX.
package suggest
