// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

package matmul

import (
	"fmt"
	"testing"
)

// TestPackTransposedLHS checks the packing against its definition for the
// fast path's strip heights (4, 6, 8 float32 rows), another height, a
// 64-bit type, partial last strips and offset blocks.
func TestPackTransposedLHS(t *testing.T) {
	const K, rows = 23, 37 // lhsT is [K, rows]
	lhs32 := make([]float32, K*rows)
	lhs64 := make([]float64, K*rows)
	for i := range lhs32 {
		lhs32[i], lhs64[i] = float32(i+1), float64(i+1)
	}
	for _, kr := range []int{4, 6, 8, 3} {
		for _, c := range []struct{ rowStart, colStart, copyRows, cols int }{
			{0, 0, 24, 23}, {5, 2, 13, 17}, {1, 7, kr, 9}, {30, 0, 7, 23},
		} {
			t.Run(fmt.Sprintf("rows%d_%+v", kr, c), func(t *testing.T) {
				n := (c.copyRows + kr - 1) / kr * kr * c.cols
				p32, p64 := make([]float32, n), make([]float64, n)
				for i := range p32 {
					p32[i], p64[i] = -1, -1
				}
				PackTransposedLHS(lhs32, p32, c.rowStart, c.colStart, rows, c.copyRows, c.cols, kr)
				PackTransposedLHS(lhs64, p64, c.rowStart, c.colStart, rows, c.copyRows, c.cols, kr)
				for strip := 0; strip*kr < c.copyRows; strip++ {
					for k := range c.cols {
						for r := range kr {
							var want float64
							if row := strip*kr + r; row < c.copyRows {
								want = float64((c.colStart+k)*rows + c.rowStart + row + 1)
							}
							i := strip*kr*c.cols + k*kr + r
							if float64(p32[i]) != want || p64[i] != want {
								t.Fatalf("strip %d, k %d, row %d: got %v (float32) and %v (float64), want %v", strip, k, r, p32[i], p64[i], want)
							}
						}
					}
				}
			})
		}
	}
}
