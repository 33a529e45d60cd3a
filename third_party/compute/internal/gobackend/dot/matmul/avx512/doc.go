// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

// Package avx512 provides AVX-512 accelerated matrix multiplication kernels.
package avx512
