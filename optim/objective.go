package optim

import (
	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive
)

// Objective is a training loss. The Updater never knows which loss it
// runs: a language model's objective implements LMObjective, a scoring
// model's ScoreObjective.
//
// A loss and its metrics must be sums over the batch's rows, normalized
// by the batch totals in TokenNodes (never by a count taken over the rows
// the graph sees): the Updater may split a batch into micro-batches and
// add their losses, gradients and metrics.
type Objective interface {
	// Inputs is the set of per-token inputs the loss reads.
	Inputs() Field
	// MetricNames names the loss's metrics, in order.
	MetricNames() []string
}

// LMObjective builds a loss from the log-probabilities a language model
// gives the target tokens. Its inputs are aligned with the targets: one
// value per token after the first ([B, T−1]).
type LMObjective interface {
	Objective
	// Loss returns the scalar loss and metrics from logp and entropy
	// [B, T−1] of the target tokens and the per-token inputs.
	Loss(logp, entropy *Node, in TokenNodes) (loss *Node, metrics []*Node)
}

// ScoreObjective builds a loss from a scoring head's label-0 logit at
// every token ([B, T]); its inputs have one value per token ([B, T]).
type ScoreObjective interface {
	Objective
	ScoreLoss(scores *Node, in TokenNodes) (loss *Node, metrics []*Node)
}

// CrossEntropy is supervised fine-tuning's loss: the mean negative
// log-likelihood of the targets a mask selects,
// L = −Σ mask·logp / max(N, 1) with N = Σ mask over the whole batch. Its
// one input is the mask; its metric is Σ mask.
type CrossEntropy struct{}

// Inputs is the mask.
func (CrossEntropy) Inputs() Field { return FieldMask }

// MetricNames is the number of targets counted.
func (CrossEntropy) MetricNames() []string { return []string{"tokens"} }

// Loss is L = −Σ mask·logp / max(N, 1).
func (CrossEntropy) Loss(logp, _ *Node, in TokenNodes) (*Node, []*Node) {
	n := in.Tokens
	loss := Neg(Div(ReduceAllSum(Mul(logp, in.Mask)), Max(n, OnesLike(n))))
	return loss, []*Node{ReduceAllSum(in.Mask)}
}

// BinaryCrossEntropy trains a scoring head on labels y ∈ {0, 1} at the
// tokens a weight w (the mask) selects:
// L = Σ w·(softplus(s) − y·s) / max(W, 1) with W = Σ w over the whole
// batch, the mean of −y·log σ(s) − (1−y)·log(1−σ(s)). Inputs: the mask
// (weights) and the labels. Metrics: the weighted accuracy of s > 0 and
// the number of scored tokens Σ w.
type BinaryCrossEntropy struct{}

// Inputs are the weights (mask) and the labels.
func (BinaryCrossEntropy) Inputs() Field { return FieldMask | FieldLabel }

// MetricNames are the weighted accuracy and Σ w.
func (BinaryCrossEntropy) MetricNames() []string { return []string{"accuracy", "scored"} }

// ScoreLoss is L = Σ w·(softplus(s) − y·s) / max(W, 1).
func (BinaryCrossEntropy) ScoreLoss(s *Node, in TokenNodes) (*Node, []*Node) {
	y, w := in.Label, in.Mask
	// softplus(s) = max(s, 0) + log(1 + exp(−|s|)), stable for large |s|.
	softplus := Add(Max(s, ZerosLike(s)), Log1p(Exp(Neg(Abs(s)))))
	denom := Max(in.Tokens, OnesLike(in.Tokens))
	loss := Div(ReduceAllSum(Mul(w, Sub(softplus, Mul(y, s)))), denom)
	pred := ConvertDType(GreaterThan(s, ZerosLike(s)), dtypes.Float32)
	right := Sub(OnesLike(pred), Abs(Sub(pred, y)))
	acc := Div(ReduceAllSum(Mul(w, right)), denom)
	return loss, []*Node{acc, ReduceAllSum(w)}
}
