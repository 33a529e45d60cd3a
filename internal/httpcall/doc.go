// Package httpcall is the HTTP plumbing that credo's remote rewards share
// (the language-model judge, reward/judge, and a user's own verifier,
// reward/remote): one bounded POST attempt under a time limit, which
// statuses are worth a retry, the server's Retry-After, a jittered
// exponential back-off, and a server's error message made short and safe
// to log.
//
// It imports only the standard library.
package httpcall
