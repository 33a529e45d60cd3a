// Package credit turns a batch's rewards into token advantages: how much
// credit each response gets for each reward, and where inside the response
// that credit lands. It implements docs/ALGORITHMS.md exactly.
//
// Response level: GRPO (sum the weighted rewards, then normalize in the
// group; scale "group", "batch" or "none"), GDPO (normalize each reward in
// its group, sum, normalize over the batch) and SAW (weights from each
// reward's coefficient of variation), which composes with every method.
//
// Token level, for GDPO-based methods: a relevance source gives q ≥ 0 on
// every token (uniform, span: a verdict's byte spans with discounted credit
// before them, replay: the Jensen–Shannon divergence between the policy's
// next-token distributions with and without a reward's information block),
// and placement turns q into weights of mean one, w = (1 − β) + β·q/mean q,
// capped at κ. The tokens of a response therefore average to GDPO's
// advantage. The gradient method (P2T) instead adds a process reward
// model's influence-weighted step rewards to GRPO's advantage.
//
// Methods are found by name (New, Register): "grpo", "gdpo", "span",
// "mrtpo" (GDPO with replay), "p2t", and "saw+<name>" for any of them. All
// take a Config and see the same Batch; models come in through the Batch as
// a Replayer or an Influencer, so the package itself needs none. Every
// method returns the diagnostics credit/concentration/<reward>,
// credit/localization/<reward> and credit/skipped.
package credit
