// Package prm is the process reward model (PRM) of the gradient credit
// method, P2T (ALGORITHMS.md §2, "gradient").
//
// A PRM is a transformer of the policy's family with a scalar scoring head
// (model.Config.NumLabels = 1), its own tokenizer, and a step splitter
// (the task's step labeler, or a plain separator split). It reads
// tok.EncodePrompt(prompt) followed by the response's tokens and scores
// each step at the PRM token holding the step's last byte: the first token
// that has seen the whole step, whatever follows it. sigmoid(logit) is the
// probability that the step is correct.
//
// Train builds a PRM from a task's exact step labels (task.StepLabeler):
// clean and corrupted solutions (Synthetic) and, optionally, a warmed-up
// policy's samples (PolicySamples), with binary cross-entropy at the step
// tokens; it reports held-out step accuracy and ROC AUC (Evaluate, AUC)
// and writes a PRM folder (model files, tokenizer, InfoFile, TrainFile).
//
// Influence attributes the sum of a response's step logits
// S = Σ_steps logit_s to its tokens in one forward and one backward pass
// for the whole batch:
//
//	I[t] = ⟨∂S/∂e_t, e_t − e_null⟩
//
// with e_null the PAD embedding, the mean of the embedding table, zero or
// the EOS embedding (credit.NullEmbedding). ExactInfluence is the slow
// reference, ΔS_t = S − S(e_t ← e_null), one re-scoring per token; the two
// agree exactly for a model linear in its embeddings, and Agreement
// measures how well they agree on a real one (within-step Spearman).
//
// The PRM's tokenizer may differ from the policy's. Influence and step
// ranges are computed on PRM tokens and carried to the policy's tokens by
// bytes (Carry): a policy token gets the sum of the PRM tokens inside it,
// and a PRM token spanning several policy tokens is split evenly among
// them. *PRM implements credit.Influencer.
//
// It imports credit (the Influencer it implements), model, model/hf, optim,
// policy, sample, task, tokenizer and run; neither rl nor credit imports it
// (cmd hands a PRM to a trainer).
package prm
