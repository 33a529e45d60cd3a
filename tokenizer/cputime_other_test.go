//go:build !linux

package tokenizer

import "time"

// threadCPU is only measured on Linux.
func threadCPU() (time.Duration, bool) { return 0, false }

// processCPU is only measured on Linux.
func processCPU() (time.Duration, bool) { return 0, false }
