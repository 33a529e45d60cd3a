//go:build !unix

package boundedread

import "os"

const openFlags = 0

func clearNonblock(*os.File) error { return nil }
