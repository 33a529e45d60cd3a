// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

package ops

// CollapseTransposeAxesForTest exposes collapseTransposeAxes to ops_test.
var CollapseTransposeAxesForTest = collapseTransposeAxes
