package model

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive
	"github.com/gomlx/gomlx/core/tensors"
)

// AdamW is the optimizer's configuration. The update follows PyTorch's
// torch.optim.AdamW exactly, so the reference test can pin its losses.
type AdamW struct {
	Beta1 float64 `json:"beta1"` // 0.9: the usual momentum
	Beta2 float64 `json:"beta2"` // 0.95: forgets stale curvature faster than 0.999, steadier for small-batch RL
	Eps   float64 `json:"eps"`   // 1e-8: PyTorch's default
	// WeightDecay is decoupled decay applied to matrices only (0.1 as in
	// nanoGPT and most LLM recipes).
	WeightDecay float64 `json:"weight_decay"`
	// ClipNorm scales gradients so their global L2 norm is at most this
	// (1.0, the common choice); 0 disables clipping.
	ClipNorm float64 `json:"clip_norm"`
}

// DefaultAdamW returns the defaults documented on AdamW's fields.
func DefaultAdamW() AdamW {
	return AdamW{Beta1: 0.9, Beta2: 0.95, Eps: 1e-8, WeightDecay: 0.1, ClipNorm: 1}
}

// Objective is a training loss. The trainer never knows which loss it
// runs: a language model's objective implements LMObjective, a scoring
// model's ScoreObjective.
//
// A loss and its metrics must be sums over the batch's rows, normalized
// by the batch totals in TokenNodes (never by a count taken over the rows
// the graph sees): the trainer may split a batch into micro-batches and
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

// Trainer updates a model's weights with AdamW against an objective. It
// owns the optimizer state; its Step is the only thing that changes the
// model's weights during training.
type Trainer struct {
	m    *Model
	opt  AdamW
	obj  Objective
	mom  []*tensors.Tensor // AdamW first moments, in Specs order
	vel  []*tensors.Tensor // second moments
	step int64             // completed (not skipped) updates
	mem  Memory
	exec *Exec // the whole step in one graph (one micro-batch)
	grad *Exec // one micro-batch's gradient, added to an accumulator
	upd  *Exec // AdamW from an accumulated gradient
}

// NewTrainer starts an optimizer for m with zero moments.
func NewTrainer(m *Model, opt AdamW, obj Objective) (*Trainer, error) {
	_, lm := obj.(LMObjective)
	_, sc := obj.(ScoreObjective)
	switch {
	case m.Config.NumLabels > 0 && !sc:
		return nil, fmt.Errorf("the model has a scoring head: its objective must implement ScoreObjective")
	case m.Config.NumLabels == 0 && !lm:
		return nil, fmt.Errorf("the model is a language model: its objective must implement LMObjective")
	}
	if obj.Inputs()&FieldMask == 0 {
		return nil, fmt.Errorf("objective inputs %s: every objective reads the mask", obj.Inputs())
	}
	if opt.Beta1 < 0 || opt.Beta1 >= 1 || opt.Beta2 < 0 || opt.Beta2 >= 1 || opt.Eps <= 0 || opt.WeightDecay < 0 || opt.ClipNorm < 0 {
		return nil, fmt.Errorf("invalid AdamW settings %+v: betas must be in [0, 1), eps positive, decay and clip non-negative", opt)
	}
	t := &Trainer{m: m, opt: opt, obj: obj}
	for _, p := range m.specs {
		t.mom = append(t.mom, tensors.FromFlatDataAndDimensions(make([]float32, p.Size()), p.Shape...))
		t.vel = append(t.vel, tensors.FromFlatDataAndDimensions(make([]float32, p.Size()), p.Shape...))
	}
	return t, nil
}

// StepStats reports one update.
type StepStats struct {
	Loss     float64
	GradNorm float64 // before clipping
	// Skipped is true when the loss, a gradient, or an updated weight or
	// moment was not finite: the weights and optimizer state were left
	// untouched.
	Skipped bool
	Metrics map[string]float64
}

// Steps is the number of updates applied so far.
func (t *Trainer) Steps() int64 { return t.step }

// OptimizerState copies the moments to the host, in Specs order.
func (t *Trainer) OptimizerState() (mom, vel [][]float32) {
	for i := range t.mom {
		mom = append(mom, tensors.MustCopyFlatData[float32](t.mom[i]))
		vel = append(vel, tensors.MustCopyFlatData[float32](t.vel[i]))
	}
	return mom, vel
}

// SetOptimizerState restores moments and the update count (from a checkpoint).
func (t *Trainer) SetOptimizerState(mom, vel [][]float32, steps int64) error {
	if len(mom) != len(t.m.specs) || len(vel) != len(t.m.specs) {
		return fmt.Errorf("optimizer state: %d/%d tensors for %d parameters", len(mom), len(vel), len(t.m.specs))
	}
	for i, p := range t.m.specs {
		if len(mom[i]) != p.Size() || len(vel[i]) != p.Size() {
			return fmt.Errorf("optimizer state: tensor %s has the wrong size", p.Name)
		}
	}
	for i, p := range t.m.specs {
		t.mom[i].FinalizeAll()
		t.vel[i].FinalizeAll()
		t.mom[i] = tensors.FromFlatDataAndDimensions(mom[i], p.Shape...)
		t.vel[i] = tensors.FromFlatDataAndDimensions(vel[i], p.Shape...)
	}
	t.step = steps
	return nil
}

// Step computes the objective on a batch and applies one AdamW update with
// learning rate lr. in holds the fields the objective reads, one row per
// sequence: one value per target token (len(seqs[i]) − 1) for a language
// model, one per token for a scoring model. The batch is split into
// micro-batches as the trainer's Memory decides; their gradients are
// summed before the one update, which equals the whole batch's to float32
// rounding. A non-finite loss, gradient, updated weight or moment skips
// the update and reports Skipped.
func (t *Trainer) Step(ctx context.Context, seqs [][]int32, in TokenInputs, lr float64) (StepStats, error) {
	if err := t.m.checkTokens(seqs); err != nil {
		return StepStats{}, fmt.Errorf("train step: %w", err)
	}
	shift := 1 // language models: one value per target token
	if t.m.Config.NumLabels > 0 {
		shift = 0 // scoring models: one value per token
	}
	if err := checkInputs(seqs, in, t.obj.Inputs(), shift); err != nil {
		return StepStats{}, fmt.Errorf("train step: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return StepStats{}, err
	}
	tot := totalsOf(in.Mask)
	n := int64(t.step + 1)
	bc1 := 1 - math.Pow(t.opt.Beta1, float64(n))
	bc2 := 1 - math.Pow(t.opt.Beta2, float64(n))
	hyper := []any{float32(lr), float32(lr / bc1), float32(math.Sqrt(bc2))}
	rows := t.microRows(seqs)
	var out []*tensors.Tensor
	var err error
	if rows >= len(seqs) {
		out, err = t.fusedStep(seqs, in, tot, hyper, shift)
	} else {
		out, err = t.accumulatedStep(ctx, seqs, in, tot, hyper, shift, rows)
	}
	if err != nil {
		return StepStats{}, fmt.Errorf("train step: %w", err)
	}
	np := len(t.m.params)
	scalar := func(x *tensors.Tensor) float64 { return float64(tensors.MustCopyFlatData[float32](x)[0]) }
	rest := out[3*np:]
	st := StepStats{Loss: scalar(rest[0]), GradNorm: scalar(rest[1]), Skipped: scalar(rest[2]) == 0, Metrics: map[string]float64{}}
	for i, name := range t.obj.MetricNames() {
		st.Metrics[name] = scalar(rest[3+i])
	}
	for _, x := range rest {
		x.FinalizeAll()
	}
	if st.Skipped {
		for _, x := range out[:3*np] {
			x.FinalizeAll()
		}
		return st, nil
	}
	for i := range np {
		t.m.params[i].FinalizeAll()
		t.mom[i].FinalizeAll()
		t.vel[i].FinalizeAll()
		t.m.params[i], t.mom[i], t.vel[i] = out[i], out[np+i], out[2*np+i]
	}
	t.step++
	return st, nil
}

// stateArgs are the weights, moments and velocities as graph arguments.
func (t *Trainer) stateArgs() []any {
	args := make([]any, 0, 3*len(t.m.params))
	for _, group := range [][]*tensors.Tensor{t.m.params, t.mom, t.vel} {
		for _, x := range group {
			args = append(args, x)
		}
	}
	return args
}

// batchArgs are a (micro-)batch's graph arguments: tokens [B, T], the
// present inputs [B, T − shift] and the whole batch's totals.
func batchArgs(seqs [][]int32, in TokenInputs, tot batchTotals, shift int) []any {
	pad, T := padded(seqs, 0)
	args := []any{pad}
	for _, e := range packInputs(in, T-shift) {
		args = append(args, e)
	}
	return append(args, tot.tokens, tot.sequences, tot.rows)
}

// fusedStep runs the whole step in one graph: outputs are new params,
// moments, velocities, loss, grad norm, finite flag and metrics.
func (t *Trainer) fusedStep(seqs [][]int32, in TokenInputs, tot batchTotals, hyper []any, shift int) ([]*tensors.Tensor, error) {
	if t.exec == nil {
		e, err := NewExec(t.m.backend, t.buildStep)
		if err != nil {
			return nil, err
		}
		e.SetMaxCache(256)
		t.exec = e
	}
	args := append(append(t.stateArgs(), hyper...), batchArgs(seqs, in, tot, shift)...)
	return t.exec.Call(args...)
}

// accumulatedStep sums the gradients, losses and metrics of micro-batches
// of rows sequences (each normalized by the whole batch's totals, so the
// sums are the whole batch's), then applies one AdamW update; its outputs
// are fusedStep's.
func (t *Trainer) accumulatedStep(ctx context.Context, seqs [][]int32, in TokenInputs, tot batchTotals, hyper []any, shift, rows int) ([]*tensors.Tensor, error) {
	if t.grad == nil {
		g, err := NewExec(t.m.backend, t.buildGrad)
		if err != nil {
			return nil, err
		}
		u, err := NewExec(t.m.backend, t.buildUpdate)
		if err != nil {
			return nil, err
		}
		g.SetMaxCache(256)
		t.grad, t.upd = g, u
	}
	np := len(t.m.params)
	acc := make([]*tensors.Tensor, np)
	for i, p := range t.m.specs {
		acc[i] = tensors.FromFlatDataAndDimensions(make([]float32, p.Size()), p.Shape...)
	}
	free := func() {
		for _, x := range acc {
			x.FinalizeAll()
		}
	}
	defer free()
	loss := 0.0
	metrics := make([]float64, len(t.obj.MetricNames()))
	for lo := 0; lo < len(seqs); lo += rows {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		hi := min(lo+rows, len(seqs))
		args := make([]any, 0, 2*np+8)
		for _, x := range t.m.params {
			args = append(args, x)
		}
		for _, x := range acc {
			args = append(args, x)
		}
		args = append(args, batchArgs(seqs[lo:hi], in.rows(lo, hi), tot, shift)...)
		out, err := t.grad.Call(args...)
		if err != nil {
			return nil, err
		}
		free()
		copy(acc, out[:np])
		for j, x := range out[np:] {
			v := float64(tensors.MustCopyFlatData[float32](x)[0])
			if j == 0 {
				loss += v
			} else {
				metrics[j-1] += v
			}
			x.FinalizeAll()
		}
	}
	args := append(t.stateArgs(), hyper...)
	for _, x := range acc {
		args = append(args, x)
	}
	out, err := t.upd.Call(append(args, float32(loss))...)
	if err != nil {
		return nil, err
	}
	for _, v := range metrics {
		out = append(out, tensors.FromScalar(float32(v)))
	}
	return out, nil
}

// objectiveLoss is the objective on a (micro-)batch of tokens [B, T]
// given the weights; inputs are the present fields then the totals.
func (t *Trainer) objectiveLoss(params []*Node, tokens *Node, inputs []*Node) (loss *Node, metrics []*Node) {
	w := t.m.bind(params)
	in := bindInputs(t.obj.Inputs(), inputs)
	if obj, ok := t.obj.(ScoreObjective); ok {
		h := forward(t.m.Config, w, embedTokens(w, tokens), sequenceInputs(t.m.Config, tokens), nil)
		return obj.ScoreLoss(labelZero(headLogits(w, h)), in) // scores [B, T]
	}
	logp, entropy := tokenLogProbs(t.m.Config, w, tokens) // [B, T−1]
	return t.obj.(LMObjective).Loss(logp, entropy, in)
}

// buildStep is the fused update graph:
// inputs: params, moments, velocities, lr, lr/(1−β1ⁿ), √(1−β2ⁿ), tokens [B, T], inputs [B, T−1], totals;
// outputs: new params, moments, velocities, loss, grad norm, finite flag, metrics.
func (t *Trainer) buildStep(inputs []*Node) []*Node {
	np := len(t.m.specs)
	params, mom, vel := inputs[:np], inputs[np:2*np], inputs[2*np:3*np]
	lr, stepSize, bc2sqrt, tokens := inputs[3*np], inputs[3*np+1], inputs[3*np+2], inputs[3*np+3]
	loss, metrics := t.objectiveLoss(params, tokens, inputs[3*np+4:])
	grads := Gradient(loss, params...)
	out := t.adamW(params, mom, vel, grads, loss, lr, stepSize, bc2sqrt)
	return append(out, metrics...)
}

// buildGrad is one micro-batch's gradient added to an accumulator:
// inputs: params, accumulated gradients, tokens [B, T], inputs [B, T−1], totals;
// outputs: accumulator + ∂loss/∂params, loss, metrics.
func (t *Trainer) buildGrad(inputs []*Node) []*Node {
	np := len(t.m.specs)
	params, acc, tokens := inputs[:np], inputs[np:2*np], inputs[2*np]
	loss, metrics := t.objectiveLoss(params, tokens, inputs[2*np+1:])
	grads := Gradient(loss, params...)
	out := make([]*Node, np, np+1+len(metrics))
	for i, g := range grads {
		out[i] = Add(acc[i], g)
	}
	out = append(out, loss)
	return append(out, metrics...)
}

// buildUpdate applies AdamW with an accumulated gradient:
// inputs: params, moments, velocities, lr, lr/(1−β1ⁿ), √(1−β2ⁿ), gradients, loss;
// outputs: new params, moments, velocities, loss, grad norm, finite flag.
func (t *Trainer) buildUpdate(inputs []*Node) []*Node {
	np := len(t.m.specs)
	params, mom, vel := inputs[:np], inputs[np:2*np], inputs[2*np:3*np]
	lr, stepSize, bc2sqrt := inputs[3*np], inputs[3*np+1], inputs[3*np+2]
	grads, loss := inputs[3*np+3:4*np+3], inputs[4*np+3]
	return t.adamW(params, mom, vel, grads, loss, lr, stepSize, bc2sqrt)
}

// adamW is PyTorch's clip_grad_norm_ then AdamW step:
// g ← g·min(1, c/(‖g‖+1e−6)), m ← β1·m + (1−β1)·g, v ← β2·v + (1−β2)·g²,
// p ← p·(1 − lr·λ) − lr/(1−β1ⁿ) · m / (√v/√(1−β2ⁿ) + ε), applied only
// when the loss, the norm and everything written are finite. Outputs: new
// params, moments, velocities, loss, grad norm, finite flag.
func (t *Trainer) adamW(params, mom, vel, grads []*Node, loss, lr, stepSize, bc2sqrt *Node) []*Node {
	np := len(params)
	// Σ‖g‖² in the order of the parameters' names, so the norm (and so
	// clipping) does not depend on the order the parameters are passed in.
	byName := make([]int, np)
	for i := range byName {
		byName[i] = i
	}
	slices.SortFunc(byName, func(a, b int) int { return strings.Compare(t.m.specs[a].Name, t.m.specs[b].Name) })
	sq := ReduceAllSum(Square(grads[byName[0]]))
	for _, i := range byName[1:] {
		sq = Add(sq, ReduceAllSum(Square(grads[i])))
	}
	norm := Sqrt(sq)
	finite := LogicalAnd(IsFinite(loss), IsFinite(norm))
	scale := OnesLike(norm)
	if t.opt.ClipNorm > 0 { // PyTorch's clip_grad_norm_: coef = max/(norm+1e-6), at most 1
		scale = Min(scale, Div(Scalar(norm.Graph(), dtypes.Float32, t.opt.ClipNorm), AddScalar(norm, 1e-6)))
	}
	b1, b2 := t.opt.Beta1, t.opt.Beta2
	next, m, v := make([]*Node, np), make([]*Node, np), make([]*Node, np)
	for i, p := range params {
		g := Mul(grads[i], scale)
		m[i] = Add(MulScalar(mom[i], b1), MulScalar(g, 1-b1))
		v[i] = Add(MulScalar(vel[i], b2), MulScalar(Square(g), 1-b2))
		next[i] = p
		if t.m.specs[i].Decay && t.opt.WeightDecay > 0 { // decoupled decay first, as PyTorch does
			next[i] = Mul(p, OneMinus(MulScalar(lr, t.opt.WeightDecay)))
		}
		denom := AddScalar(Div(Sqrt(v[i]), bc2sqrt), t.opt.Eps)
		next[i] = Sub(next[i], Mul(stepSize, Div(m[i], denom)))
		// A finite loss and gradient can still give non-finite weights or
		// moments (a learning rate of 3e38 overflows the step size): the
		// update counts only when everything it writes is finite. A sum is
		// finite exactly when its terms are (short of a sum beyond 3.4e38,
		// which no trainable weights reach), and costs one pass where
		// IsFinite and LogicalAll cost two.
		finite = LogicalAnd(finite, IsFinite(Add(Add(ReduceAllSum(next[i]), ReduceAllSum(m[i])), ReduceAllSum(v[i]))))
	}
	// No Where(finite, new, old) here: Step keeps the old tensors when the
	// update is not finite, so selecting in the graph would be three wasted
	// passes over every parameter.
	out := make([]*Node, 0, 3*np+3)
	out = append(append(append(out, next...), m...), v...)
	return append(out, loss, norm, ConvertDType(finite, dtypes.Float32))
}
