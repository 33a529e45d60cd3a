// Package conf is the config-file layer the commands and the trainer
// share: a JSON or YAML file decoded over defaults with unknown keys
// refused (Load, Decode), durations written "5s" (Duration), and the
// credit section (Credit), whose keys of older runs still load into the
// options that replaced them. Package credit itself reads no file: its
// methods get their options as values.
//
// It imports credit, internal/boundedread and yaml; it needs no GoMLX.
// rl and cmd/credo stand above it.
package conf
