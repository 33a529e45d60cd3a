// Package model is the decoder-only transformer credo trains: Llama, Qwen2
// and Qwen3 (RMSNorm, RoPE with Llama 3's scaling, SwiGLU, grouped-query
// attention, Qwen3's q/k norm, optional biases, tied or untied embeddings,
// and a token-level scoring head for the process reward model), written
// directly with GoMLX graph ops on the pure-Go backend and computed in
// float32.
//
// It holds the architecture (Config, with Hugging Face's config.json
// names, and Validate), the weights with their HF names and storage dtypes
// (Params, New, FromWeights), the presets (Tiny, Small, Medium, QwenSmall,
// Preset by name), the forward functions (LogProbs, Targets,
// Distributions, SharedDistributions, Scores, EmbeddingGradient,
// ScoreEmbeddings), KV-cache generation (Prefill, Decode) and the seams
// training builds on (Weights, ReplaceWeights, TargetLogProbs,
// LabelScores). Every forward function checks its call, then runs one
// compiled graph per batch shape (padded to Bucket lengths, and on XLA,
// which compiles a graph per shape, to RowBucket row counts).
//
// It imports GoMLX and the standard library, nothing of credo: reading
// and writing checkpoint folders is model/hf's, training is optim's, and
// both import model.
package model
