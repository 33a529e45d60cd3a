// Package rollout samples groups of responses with a policy and verifies
// every response with every reward (Rollout, VerifyAll: a bounded pool of
// verdicts, each under its time limit; a failed verdict scores 0 with its
// reason), and evaluates a policy on a task's test split (Evaluate). It is
// the one "sample, then verify" that a training step, an evaluation and a
// calibration share.
//
// A training step's groups come from Step: one round of prompts, or DAPO's
// dynamic sampling, rounds of fresh prompts that keep only the groups in
// which some reward varies, each round seeded from the run's seed and the
// step (StepSeed). Rollouts then become what a credit method sees
// (CreditBatch) and the lines of samples.jsonl (Samples).
//
// It imports credit (which groups vary, as the methods decide it, and the
// Batch they read), policy, reward, run (the metrics and samples records),
// sample and task; rl and lab stand on it.
package rollout
