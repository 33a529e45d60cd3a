// Package optim trains a model's weights: the Updater runs AdamW (exactly
// PyTorch's torch.optim.AdamW with global-norm clipping) against an
// Objective, the loss built on the model's target log-probabilities
// (LMObjective: cross-entropy for warm-up, rl's policy loss) or on a
// scoring head's label-0 logits (ScoreObjective: the process reward
// model's binary cross-entropy). An objective declares the per-token
// inputs it reads (Field, TokenInputs) and normalizes by the whole batch's
// totals (TokenNodes), so a step split into micro-batches (Memory, sized
// by model.Config.StepBytes) gives the whole batch's update; a Schedule
// gives each step's learning rate. An update whose loss, gradient, weights
// or moments are not finite is skipped.
//
// It imports model (the weights as tensors, ReplaceWeights, the graph
// builders TargetLogProbs and LabelScores, CheckTokens, Padded, Bucket) and
// internal/settings (its settings' problems) and internal/progress (Loop,
// the one driver of the trainers' loops), nothing else of credo; model
// never imports it.
package optim
