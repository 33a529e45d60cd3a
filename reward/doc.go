// Package reward holds what every verifier shares: the Prompt it judges, the
// Verdict it returns (a score, an information block and the spans of the
// response it looked at), the Verifier interface and a registry of verifier
// factories by name.
//
// A verdict's spans are byte ranges of the response text. Credit assignment
// needs them on tokens: TokenStrengths maps them through a tokenizer's byte
// offsets, and TokenEffects adds each token's Effect (a judge's "+" or "−").
//
// It imports only internal/registry: every task and judge builds on it.
//
// It needs no GoMLX (go list -deps names none), so another module may
// import it as a library: credo itself is built from its repository,
// whose go.mod replace binds the patched GoMLX backend (third_party/compute)
// in credo's own module only.
package reward
