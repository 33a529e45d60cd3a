// Package topk turns an inference engine's top-k prompt log-probs (vLLM's
// or SGLang's) into distributions that Jensen–Shannon can compare: the
// answers of every request with the same response tokens share, at each
// position, the union of their top-k ids plus one bucket for the rest of
// the vocabulary. credit.TopKReplayer serves these rows to the replay
// method for trainers whose own engine replays (credit.ReplayPlan);
// docs/SERVICE.md §9 measures the approximation against full distributions.
//
// It imports only the standard library.
package topk
