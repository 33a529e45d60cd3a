// Package boundedread reads the files credo takes as input: each must be a
// regular file (symbolic links followed), or "-" for standard input where
// a command says so, and no larger than a limit suited to what it holds.
// A device (/dev/zero), a FIFO or a folder is an error at once, before a
// byte is read, and a file over its limit is an error that names both
// sizes, so no input can make credo block or grow without end.
//
// It imports only the standard library.
package boundedread
