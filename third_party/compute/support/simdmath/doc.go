// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

// Package simdmath provides vector SIMD approximations of mathematical
// operations (Exp, Tanh, Erf, Sqrt, Inv, Sigmoid, Gelu) across floating-point
// data types using Go's portable simd package.
package simdmath
