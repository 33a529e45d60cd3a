// Package replay is the policy as credit's Replayer: it re-reads
// already-sampled responses after rebuilt prompts (the prompt with and
// without each reward's information block), without gradients, and
// returns the next-token distributions replay relevance (MRTPO) compares.
// Its sequences share long prefixes, so with a model that can
// (model.Model.SharedDistributions) each prefix runs once per call, calls
// are cut by suffix length, and two run at a time. The block diagnostic
// (BlockDiagnostic) uses it to measure whether a policy reads its blocks
// at all.
//
// It imports credit (the Replayer it implements), model, policy, reward,
// task and tokenizer; rl and lab use it.
package replay
