// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

// Package simdpart has the partial vector loads of Go's simd package
// (LoadFloat32sPart and the like) without reading past the slice's memory.
//
// Go 1.27's simd loads a whole vector and then masks off the lanes past
// len(s), counting on the compiler to fuse the two into a masked load,
// which does not fault. Where the compiler does not fuse them (seen in the
// backend's binary ops), the plain load reads up to a vector's width past
// the slice, and when the slice ends at the end of mapped memory the
// process dies with "unexpected fault address" — rarely, since it depends
// on where the heap put the slice (GODEBUG=efence=1 makes it certain).
//
// Each function here calls simd's own when the slice's backing array holds
// a whole vector from its start (cap(s) ≥ 64 elements, more than any
// vector), so the plain load stays inside the allocation; otherwise it
// copies the slice into a zeroed 64-element buffer on the stack and loads
// from that.
package simdpart
