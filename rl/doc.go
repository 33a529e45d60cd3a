// Package rl is the trainer: it samples groups of responses, verifies them,
// asks a credit method for token advantages, and updates the policy with a
// clipped surrogate loss. It also holds supervised warm-up (WarmUp) and
// evaluation (Evaluate). Nothing here names a method or a task: both are
// looked up by name in their registries.
package rl
