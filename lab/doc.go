// Package lab runs the experiments around the trainer: supervised warm-up
// on a task's demonstrations (WarmUp), the calibration of where a policy
// starts (Calibrate), and comparisons of credit methods trained from one
// warm-up with the same prompts and seeds (Compare), whose folders the
// report package reads, and the focus diagnostic (Focus): how much of a
// uniform advantage's logit update already lands on the tokens a
// verifier checked, which bounds what placing the credit can change.
//
// It stands above rl and may import rl, ckpt, credit, model, policy, task,
// reward, run and the internal packages; nothing but cmd imports it.
package lab
