// Package settings names what is wrong with a configuration: each bad
// setting as a Problem keyed the way config.json spells it, and Error, a
// configuration a command cannot start with (commands report it as a
// usage error, exit code 2, naming each setting by its flag). It imports
// nothing of credo's.
package settings
