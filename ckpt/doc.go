// Package ckpt is a training run's folder beyond its logs: checkpoints in
// one format (the policy in float32, the AdamW moments, state.json, the
// configuration they were written under and the SHA-256 of every file),
// the checkpoints/ directory's steps, pruning and debris, the comparison
// of a resume's configuration with the saved one (resumes.json), and the
// folder's one owner. The RL trainer (rl) and the SFT warm-up (lab) share
// it, so a checkpoint of either is written, verified and restored the same
// way; the PRM trainer keeps no checkpoint (its loop is optim.Loop too).
//
// Every random draw of a trainer is seeded from its seed and the step, so
// state.json's step and seed are its whole RNG state: a resumed run
// continues bit for bit.
//
// It imports model, model/hf, optim, policy, tokenizer, run and the
// internal packages; rl and lab stand above it. It names no trainer's
// configuration type: the trainers pass theirs as bytes or values.
package ckpt
