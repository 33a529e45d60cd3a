// Package policy pairs a model with its tokenizer: what a checkpoint
// folder holds, what `credo sample` and the trainer load, and what turns
// prompt text into responses.
//
// It imports model, model/hf, sample, tokenizer and internal/atomicfile.
package policy
