// Package cli is credo's command-line layer, the part of it that knows
// nothing of training: a command's flag set (Flags), whose --help lists
// grouped flags on stdout, whose parse errors are one line naming the
// flag as typed (--lr), whose floats must be finite and whose flags may
// take lists and name=value pairs or keep a former name working; and the
// binding of a config struct's settings to flags by reflection (Setting,
// Bind), each flag recording the config key it sets so that a
// configuration's problems (internal/settings) are reported by flag.
//
// cmd/credo holds what is credo's: the tables of its settings, its own
// flag types and errors. This package imports only the standard library
// and internal/settings.
package cli
