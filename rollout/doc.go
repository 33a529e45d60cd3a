// Package rollout samples groups of responses with a policy and verifies
// every response with every reward (Rollout, VerifyAll: a bounded pool of
// verdicts, each under its time limit; a failed verdict scores 0 with its
// reason), and evaluates a policy on a task's test split (Evaluate). It is
// the one "sample, then verify" that a training step, an evaluation and a
// calibration share.
//
// It imports credit (which groups vary, as the methods decide it), policy,
// reward, sample and task; rl and lab stand on it.
package rollout
