// Package rl is the trainer: one Trainer is one run directory. A training
// step goes through named phases: rollout (rl.Rollout samples groups of
// responses with the policy and verifies each with every reward), credit
// (a credit method's token advantages), update (optim's clipped-surrogate
// steps, Loss) and log (the step's metrics and samples). The trainer also
// evaluates on the task's test split (Evaluate), measures whether the
// policy reads its information blocks (BlockDiagnostic), checkpoints and
// resumes bit for bit. Nothing here names a method or a task: both are
// looked up by name in their registries.
//
// It imports credit, model, model/hf, optim, policy, reward, run, sample,
// task, tokenizer and the internal packages; lab (warm-up, calibration,
// comparisons) and cmd stand above it.
package rl
