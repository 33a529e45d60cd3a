// Package rl is the trainer: one Trainer is one run directory. A training
// step goes through named phases: rollout (rollout.Step samples groups of
// responses with the policy, with or without dynamic sampling, and
// verifies each with every reward), credit (a credit method's token
// advantages), update (optim's clipped-surrogate steps, Loss) and log (the
// step's metrics and samples).
// The trainer also evaluates on the task's test split (rollout.Evaluate),
// logs the block diagnostic (replay.BlockDiagnostic), and checkpoints and
// resumes bit for bit through package ckpt (the run folder the warm-up
// shares), its steps driven by optim.Loop.
// Nothing here names a method or a task: both are looked up by name in
// their registries.
//
// It imports ckpt, conf, credit, model, optim, policy, replay, reward,
// rollout, run, sample, task, tokenizer and the internal packages; lab
// (warm-up, calibration, comparisons) and cmd stand above it.
package rl
