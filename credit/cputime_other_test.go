//go:build !unix

package credit

import "time"

func processCPU() time.Duration { return -1 }
