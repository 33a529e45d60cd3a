package rl

import (
	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // graph code reads like math

	"github.com/credo-rl/credo/optim"
)

// Loss is the policy objective of ALGORITHMS.md §3, an optim.LMObjective.
// Per response token, with ρ = exp(logπ_θ − logπ_old):
//
//	L_t = −min(ρ·A, clip(ρ, 1−ε_low, 1+ε_high)·A) + β_KL·k3,
//	k3  = exp(logπ_ref − logπ_θ) − (logπ_ref − logπ_θ) − 1,
//
// aggregated by Agg. Its inputs, one value per target token: the mask of
// response tokens, the token advantages A, logπ_old and logπ_ref. Means
// divide by the whole batch's totals (optim.TokenNodes), so a batch split
// into micro-batches gives the same loss and metrics.
type Loss struct {
	ClipLow, ClipHigh float64
	KLBeta            float64
	Agg               string
	// MaxTokens is Dr. GRPO's constant T_max for seq-mean-token-sum-norm.
	MaxTokens int
}

// Inputs: mask, advantage, old log-prob, reference log-prob.
func (Loss) Inputs() optim.Field {
	return optim.FieldMask | optim.FieldAdvantage | optim.FieldOldLogP | optim.FieldRefLogP
}

// MetricNames names Loss's metrics.
func (Loss) MetricNames() []string {
	return []string{"loss/policy", "loss/kl", "clip/low", "clip/high", "clip/ratio", "ratio/mean", "entropy", "tokens"}
}

// Loss builds the objective from the policy's log-probs and entropies [B, T].
func (l Loss) Loss(logp, entropy *Node, in optim.TokenNodes) (*Node, []*Node) {
	mask, adv, old, ref := in.Mask, in.Advantage, in.OldLogP, in.RefLogP // [B, T]
	ratio := Exp(Sub(logp, old))
	clipped := ClipScalar(ratio, 1-l.ClipLow, 1+l.ClipHigh)
	surr := Neg(Min(Mul(ratio, adv), Mul(clipped, adv)))
	d := Sub(ref, logp)
	k3 := Sub(Sub(Exp(d), d), OnesLike(d))
	perToken := surr
	if l.KLBeta > 0 {
		perToken = Add(surr, MulScalar(k3, l.KLBeta))
	}
	tokens := ReduceAllSum(mask)                 // this (micro-)batch's
	count := Max(in.Tokens, OnesLike(in.Tokens)) // the whole batch's
	mean := func(x *Node) *Node { return Div(ReduceAllSum(Mul(x, mask)), count) }

	var loss *Node
	switch l.Agg {
	case AggSeqMeanTokenMean: // mean over sequences of each one's token mean
		perSeq := ReduceSum(mask, -1)                                                     // [B]
		seqMean := Div(ReduceSum(Mul(perToken, mask), -1), Max(perSeq, OnesLike(perSeq))) // [B]
		has := ConvertDType(GreaterThan(perSeq, ZerosLike(perSeq)), dtypes.Float32)
		n := in.Sequences // the whole batch's sequences with a response token
		loss = Div(ReduceAllSum(Mul(seqMean, has)), Max(n, OnesLike(n)))
	case AggSeqMeanTokenSumNorm: // Σ / (B · T_max), B the whole batch's
		loss = Div(ReduceAllSum(Mul(perToken, mask)), MulScalar(in.Rows, float64(max(l.MaxTokens, 1))))
	default: // token-mean over every response token of the batch
		loss = mean(perToken)
	}
	f32 := func(b *Node) *Node { return ConvertDType(b, dtypes.Float32) }
	neg := f32(LessThan(adv, ZerosLike(adv)))
	pos := f32(GreaterThan(adv, ZerosLike(adv)))
	clipLow := mean(Mul(neg, f32(LessThan(ratio, Scalar(ratio.Graph(), dtypes.Float32, 1-l.ClipLow)))))
	clipHigh := mean(Mul(pos, f32(GreaterThan(ratio, Scalar(ratio.Graph(), dtypes.Float32, 1+l.ClipHigh)))))
	return loss, []*Node{
		mean(surr), mean(k3), clipLow, clipHigh, Add(clipLow, clipHigh),
		mean(ratio), mean(entropy), tokens,
	}
}
