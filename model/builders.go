package model

import . "github.com/gomlx/gomlx/core/graph" //nolint:revive

// Graph builders for graphs the model does not run itself: optim's
// updates build the forward pass on weight nodes of their own (inputs of
// the update graph, differentiated against) from these.

// TargetLogProbs builds, on weight nodes params (in Specs order) and tokens
// [B, T], log p(tokens[:, t+1] | tokens[:, ≤t]) and the entropy of each of
// those predictions, both [B, T−1]: what a language model's training
// objective reads.
func (m *Model) TargetLogProbs(params []*Node, tokens *Node) (logp, entropy *Node) {
	return tokenLogProbs(m.Config, m.bind(params), tokens)
}

// WindowLogProbs is TargetLogProbs at width target positions of each row
// starting at from[b] ([B] int32, from[b] + width ≤ T − 1), both outputs
// [B, width]: logp[b, r] = log p(tokens[b, from[b]+r+1] | tokens[b, ≤ from[b]+r]).
// The head's [T, V] logits and softmax, a fifth of a 135M model's work
// per position, run only in the window (a policy loss reads only the
// response's positions).
func (m *Model) WindowLogProbs(params []*Node, tokens, from *Node, width int) (logp, entropy *Node) {
	return windowLogProbs(m.Config, m.bind(params), tokens, from, width)
}

// LabelScores builds, on weight nodes params (in Specs order) and tokens
// [B, T], the scoring head's label-0 logit at every token [B, T]: what a
// scoring model's training objective reads.
func (m *Model) LabelScores(params []*Node, tokens *Node) *Node {
	w := m.bind(params)
	return m.scores(w, embedTokens(w, tokens), tokens)
}
