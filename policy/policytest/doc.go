// Package policytest saves a fresh tiny policy (model.Tiny over the byte
// tokenizer) once per test binary, for the tests of packages that run the
// training loop: enough to run every part of it in a fraction of a second
// per step. It imports model, policy and tokenizer.
package policytest
