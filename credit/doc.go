// Package credit turns a batch's rewards into token advantages: how much
// credit each response gets for each reward, and where inside the response
// that credit lands. It implements docs/ALGORITHMS.md exactly.
//
// Response level: GRPO (sum the weighted rewards, then normalize in the
// group; scale "group", "batch" or "none"), GDPO (normalize each reward in
// its group, sum, normalize over the batch) and SAW (weights from each
// reward's coefficient of variation), which composes with every method.
//
// Token level, for GDPO-based methods: a relevance source gives q on every
// token (uniform; span: a verdict's byte spans with discounted credit
// before them, negative where a judge's quote works against the reward's
// advantage; replay: the Jensen–Shannon divergence, or distance, between
// the policy's next-token distributions with and without a reward's
// information block), placement turns q into weights of mean one,
// w = (1 − β) + β·q/mean q (1 + β·(q − mean q)/mean |q| in general), and
// the cap bounds the advantage a token receives summed over rewards. The
// tokens of a response therefore average to GDPO's advantage. The gradient
// method (P2T) instead adds a process reward model's influence-weighted
// step rewards to GRPO's advantage.
//
// Methods are found by name (New, Register): "grpo", "gdpo", "span",
// "mrtpo" (GDPO with replay), "p2t", "p2t-step" (P2T with η = 0),
// "p2t-code" (P2T as its released code runs it), and "saw+<name>" for any
// of them. All take a Config and see the same Batch; models come in
// through the Batch as a Replayer or an Influencer, so the package itself
// needs none. Every method returns the diagnostics
// credit/concentration/<reward>, credit/localization/<reward> and
// credit/skipped.
//
// Its arithmetic is in packages below it, which import only the standard
// library: credit/js (Jensen–Shannon) and credit/place (placement weights,
// the caps, concentration and localization). credit/topk, above it, serves
// an engine's recorded top-k log-probs as a Replayer.
//
// It imports reward (verdicts), its own subpackages, internal/registry and
// internal/parallel, never a model: a policy reaches it only as a
// Replayer, a PRM as an Influencer.
//
// It needs no GoMLX (go list -deps names none), so another module may
// import it as a library: credo itself is built from its repository,
// whose go.mod replace binds the patched GoMLX backend (third_party/compute)
// in credo's own module only.
package credit
