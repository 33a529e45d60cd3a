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

// LabelScores builds, on weight nodes params (in Specs order) and tokens
// [B, T], the scoring head's label-0 logit at every token [B, T]: what a
// scoring model's training objective reads.
func (m *Model) LabelScores(params []*Node, tokens *Node) *Node {
	w := m.bind(params)
	return m.scores(w, embedTokens(w, tokens), tokens)
}
