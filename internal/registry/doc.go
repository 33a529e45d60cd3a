// Package registry is the one name → constructor table behind credo's
// registries of credit methods, tasks and verifier kinds. Each is filled by
// init functions and only read afterwards, like database/sql's drivers. It
// imports nothing of credo's.
package registry
