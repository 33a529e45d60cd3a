// Package sample generates responses from a policy with a KV cache: groups
// of G responses per prompt share one prefill, each new token costs one
// position of compute, and every response comes back with its tokens, the
// byte range of each token in its text, and the log-probability the policy
// gave each token — the same number a training forward pass computes.
//
// Sampling is seeded per row, so the same seed, model and prompts give the
// same responses.
//
// Generate takes the model as a Decoder (prefill, decode, context length),
// the interface declared here for what generation needs: *model.Model is
// one, and tests plug in fakes whose logits they choose.
//
// It imports model and tokenizer.
package sample
