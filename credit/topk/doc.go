// Package topk serves an inference engine's top-k prompt log-probs (vLLM's
// or SGLang's) to credit's replay method, for trainers whose own engine
// replays (credit.PlanReplay says what to score): Replayer is a
// credit.Replayer over recorded answers. Jensen–Shannon needs two
// distributions on one support, so the answers of every request with the
// same response tokens share, at each position, the union of their top-k
// ids plus one bucket for the rest of the vocabulary (CommonSupport);
// docs/SERVICE.md §9 measures the approximation against full
// distributions.
//
// It imports credit (the Replayer interface and its requests) and
// internal/parallel; credit does not import it.
//
// It needs no GoMLX (go list -deps names none).
package topk
