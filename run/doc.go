// Package run owns a training run's directory: the resolved configuration,
// one JSON line of metrics per step, a few sample rollouts per step, and
// checkpoints. Every file is written to a temporary name and renamed, so a
// run killed at any moment leaves only whole files behind, and a resumed
// run truncates the logs back to its checkpoint.
package run
