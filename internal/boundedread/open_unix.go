//go:build unix

package boundedread

import (
	"os"
	"syscall"
)

// openFlags opens without blocking: opening a FIFO for reading otherwise
// waits for a writer.
const openFlags = syscall.O_NONBLOCK

// clearNonblock puts a regular file back in blocking mode.
func clearNonblock(f *os.File) error {
	return syscall.SetNonblock(int(f.Fd()), false)
}
