// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build linux

// Package pageend gives tests slices that end exactly where readable memory
// meets an unreadable page, so that any read past a slice's end faults.
package pageend

import (
	"fmt"
	"syscall"
	"unsafe"
)

// Float32s returns n float32s holding 1, 2, …, n, ending at an unreadable
// page, and a function that releases them.
func Float32s(n int) ([]float32, func(), error) {
	page := syscall.Getpagesize()
	if 4*n > page {
		return nil, nil, fmt.Errorf("pageend: %d float32s do not fit in a %d-byte page", n, page)
	}
	mem, err := syscall.Mmap(-1, 0, 2*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return nil, nil, fmt.Errorf("pageend: mmap: %w", err)
	}
	release := func() { _ = syscall.Munmap(mem) }
	if err := syscall.Mprotect(mem[page:], syscall.PROT_NONE); err != nil {
		release()
		return nil, nil, fmt.Errorf("pageend: mprotect: %w", err)
	}
	all := unsafe.Slice((*float32)(unsafe.Pointer(&mem[0])), page/4)
	s := all[len(all)-n:]
	for i := range s {
		s[i] = float32(i + 1)
	}
	return s[:n:n], release, nil
}
