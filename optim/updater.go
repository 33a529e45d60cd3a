package optim

import (
	"context"
	"fmt"
	"math"

	"github.com/credo-rl/credo/model"
	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive
	"github.com/gomlx/gomlx/core/tensors"
)

// Updater updates a model's weights with AdamW against an objective. It
// owns the optimizer state; its Step is the only thing that changes the
// model's weights during training.
type Updater struct {
	m    *model.Model
	opt  AdamW
	obj  Objective
	mom  []*tensors.Tensor // AdamW first moments, in the model's Specs order
	vel  []*tensors.Tensor // second moments
	step int64             // completed (not skipped) updates
	mem  Memory
	// graphs compiles the step's Execs by purpose: "step" (the whole step
	// in one graph, one micro-batch), "grad0" and "grad" (the first
	// micro-batch's gradient, a later one's added to the accumulator), and
	// chunkedUpdate's "sumsq", "check" and "apply" per chunk of
	// parameters (AdamW from an accumulated gradient). Row counts vary
	// with dynamic sampling and lengths with the batch, so their shapes
	// are counted and never meet GoMLX's limit.
	graphs *model.Graphs
}

// NewUpdater starts an optimizer for m with zero moments.
func NewUpdater(m *model.Model, opt AdamW, obj Objective) (*Updater, error) {
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
	u := &Updater{m: m, opt: opt, obj: obj, graphs: model.NewGraphs(0)}
	zeros, err := ExecOnceN(m.Backend(), func(g *Graph) []*Node {
		out := make([]*Node, 0, 2*len(m.Specs()))
		for range 2 {
			for _, p := range m.Specs() {
				out = append(out, Zeros(g, shapes.Make(dtypes.Float32, p.Shape...)))
			}
		}
		return out
	})
	if err != nil {
		return nil, fmt.Errorf("optimizer state: %w", err)
	}
	np := len(m.Specs())
	u.mom, u.vel = zeros[:np], zeros[np:]
	return u, nil
}

// onBackend moves host tensors to the backend, freeing their host copies.
// The moments live there only, as the update's outputs do: a host copy
// donated to the first update would be copied to the backend and kept
// beside it (1 GB at 135M) until that update ended.
func onBackend(b compute.Backend, ts []*tensors.Tensor) ([]*tensors.Tensor, error) {
	out, err := ExecOnceN(b, func(in []*Node) []*Node {
		out := make([]*Node, len(in))
		for i, x := range in {
			out[i] = Identity(x)
		}
		return out
	}, anys(ts)...)
	for _, t := range ts {
		t.FinalizeAll()
	}
	return out, err
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
func (u *Updater) Steps() int64 { return u.step }

// OptimizerState copies the moments to the host, in the model's Specs order.
func (u *Updater) OptimizerState() (mom, vel [][]float32) {
	for i := range u.mom {
		mom = append(mom, tensors.MustCopyFlatData[float32](u.mom[i]))
		vel = append(vel, tensors.MustCopyFlatData[float32](u.vel[i]))
	}
	return mom, vel
}

// SetOptimizerState restores moments and the update count (from a checkpoint).
func (u *Updater) SetOptimizerState(mom, vel [][]float32, steps int64) error {
	if len(mom) != len(u.m.Specs()) || len(vel) != len(u.m.Specs()) {
		return fmt.Errorf("optimizer state: %d/%d tensors for %d parameters", len(mom), len(vel), len(u.m.Specs()))
	}
	for i, p := range u.m.Specs() {
		if len(mom[i]) != p.Size() || len(vel[i]) != p.Size() {
			return fmt.Errorf("optimizer state: tensor %s has the wrong size", p.Name)
		}
	}
	host := make([]*tensors.Tensor, 0, 2*len(mom))
	for _, data := range [][][]float32{mom, vel} {
		for i, p := range u.m.Specs() {
			host = append(host, tensors.FromFlatDataAndDimensions(data[i], p.Shape...))
		}
	}
	state, err := onBackend(u.m.Backend(), host)
	if err != nil {
		return fmt.Errorf("optimizer state: %w", err)
	}
	for i := range u.mom {
		u.mom[i].FinalizeAll()
		u.vel[i].FinalizeAll()
	}
	np := len(u.mom)
	u.mom, u.vel = state[:np], state[np:]
	u.step = steps
	return nil
}

// Step computes the objective on a batch and applies one AdamW update with
// learning rate lr. in holds the fields the objective reads, one row per
// sequence: one value per target token (len(seqs[i]) − 1) for a language
// model, one per token for a scoring model. The batch is split into
// micro-batches as the updater's Memory decides; their gradients are
// summed before the one update, which equals the whole batch's to float32
// rounding. A non-finite loss, gradient, updated weight or moment skips
// the update and reports Skipped.
func (u *Updater) Step(ctx context.Context, seqs [][]int32, in TokenInputs, lr float64) (StepStats, error) {
	if err := u.m.CheckTokens(seqs); err != nil {
		return StepStats{}, fmt.Errorf("train step: %w", err)
	}
	shift := 1 // language models: one value per target token
	if u.m.Config.NumLabels > 0 {
		shift = 0 // scoring models: one value per token
	}
	if err := checkInputs(seqs, in, u.obj.Inputs(), shift); err != nil {
		return StepStats{}, fmt.Errorf("train step: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return StepStats{}, err
	}
	tot := totalsOf(in.Mask)
	n := int64(u.step + 1)
	bc1 := 1 - math.Pow(u.opt.Beta1, float64(n))
	bc2 := 1 - math.Pow(u.opt.Beta2, float64(n))
	hyper := []any{float32(lr), float32(lr / bc1), float32(math.Sqrt(bc2))}
	rows := u.microRows(seqs)
	var out []*tensors.Tensor
	var err error
	if rows >= len(seqs) {
		out, err = u.fusedStep(seqs, in, tot, hyper, shift)
	} else {
		out, err = u.accumulatedStep(ctx, seqs, in, tot, hyper, shift, rows)
	}
	if err != nil {
		return StepStats{}, fmt.Errorf("train step: %w", err)
	}
	np := len(u.mom)
	scalar := func(x *tensors.Tensor) float64 { return float64(tensors.MustCopyFlatData[float32](x)[0]) }
	rest := out[3*np:]
	st := StepStats{Loss: scalar(rest[0]), GradNorm: scalar(rest[1]), Skipped: scalar(rest[2]) == 0, Metrics: map[string]float64{}}
	for i, name := range u.obj.MetricNames() {
		st.Metrics[name] = scalar(rest[3+i])
	}
	for _, x := range rest {
		x.FinalizeAll()
	}
	if st.Skipped {
		for _, x := range out[:3*np] {
			if x != nil { // chunkedUpdate leaves a skipped update's nil
				x.FinalizeAll()
			}
		}
		return st, nil
	}
	if err := u.m.ReplaceWeights(out[:np]); err != nil {
		return StepStats{}, fmt.Errorf("train step: %w", err)
	}
	for i := range np {
		u.mom[i].FinalizeAll()
		u.vel[i].FinalizeAll()
		u.mom[i], u.vel[i] = out[np+i], out[2*np+i]
	}
	u.step++
	return st, nil
}

// stateArgs are the weights, moments and velocities as graph arguments.
func (u *Updater) stateArgs() []any {
	args := make([]any, 0, 3*len(u.mom))
	for _, group := range [][]*tensors.Tensor{u.m.Weights(), u.mom, u.vel} {
		for _, x := range group {
			args = append(args, x)
		}
	}
	return args
}

// batchArgs are a (micro-)batch's graph arguments: tokens [B, T], then for
// a language model (shift 1) the first target of each row's window [B]
// (targetWindow) with the present inputs in the window [B, W], for a
// scoring model the present inputs [B, T]; last the whole batch's totals.
func batchArgs(seqs [][]int32, in TokenInputs, tot batchTotals, shift int) []any {
	pad, T := model.Padded(seqs)
	args := []any{pad}
	width := T - shift
	if shift == 1 {
		from, w := targetWindow(in.Mask, T-1)
		args = append(args, from)
		in, width = in.window(from, w), w
	}
	for _, e := range packInputs(in, width) {
		args = append(args, e)
	}
	return append(args, tot.tokens, tot.sequences, tot.rows)
}

// fusedStep runs the whole step in one graph: outputs are new params,
// moments, velocities, loss, grad norm, finite flag and metrics.
func (u *Updater) fusedStep(seqs [][]int32, in TokenInputs, tot batchTotals, hyper []any, shift int) ([]*tensors.Tensor, error) {
	batch := batchArgs(seqs, in, tot, shift)
	return u.call("step", u.buildStep, batch, append(append(u.stateArgs(), hyper...), batch...))
}

// call runs the graph registered under name (build makes it) on args. Its
// Exec is chosen by the shapes of batch alone, the arguments whose shapes
// vary: the weights', moments' and hyperparameters' are the same in every
// step, so naming them on every call would be work for nothing.
func (u *Updater) call(name string, build func([]*Node) []*Node, batch, args []any) ([]*tensors.Tensor, error) {
	e, err := u.graphs.Exec(name, model.ShapeKey(batch), func() (*Exec, error) {
		return NewExec(u.m.Backend(), build)
	})
	if err != nil {
		return nil, err
	}
	return e.Call(args...)
}

// accumulatedStep sums the gradients, losses and metrics of micro-batches
// of rows sequences (each normalized by the whole batch's totals, so the
// sums are the whole batch's), then applies one AdamW update; its outputs
// are fusedStep's, less the new params, moments and velocities (nil) when
// the update is skipped. The first micro-batch's gradient is the
// accumulator (no zeros); later ones add into it in place (donated); the
// update is chunkedUpdate's.
func (u *Updater) accumulatedStep(ctx context.Context, seqs [][]int32, in TokenInputs, tot batchTotals, hyper []any, shift, rows int) ([]*tensors.Tensor, error) {
	np := len(u.mom)
	var acc []*tensors.Tensor // nil until the first micro-batch
	defer func() {
		for _, x := range acc {
			x.FinalizeAll()
		}
	}()
	loss := 0.0
	metrics := make([]float64, len(u.obj.MetricNames()))
	for lo := 0; lo < len(seqs); lo += rows {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		hi := min(lo+rows, len(seqs))
		args := make([]any, 0, 2*np+8)
		for _, x := range u.m.Weights() {
			args = append(args, x)
		}
		name, build := "grad0", u.buildGrad0
		if acc != nil {
			name, build = "grad", u.buildGrad
			donated, err := u.donate(acc)
			if err != nil {
				return nil, err
			}
			args = append(args, donated...)
		}
		batch := batchArgs(seqs[lo:hi], in.rows(lo, hi), tot, shift)
		u.releaseBuffers()
		out, err := u.call(name, build, batch, append(args, batch...))
		if err != nil {
			return nil, err
		}
		acc = out[:np]
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
	grads := acc
	acc = nil // chunkedUpdate owns them now
	u.releaseBuffers()
	out, err := u.chunkedUpdate(grads, float32(loss), hyper)
	if err != nil {
		return nil, err
	}
	for _, v := range metrics {
		out = append(out, tensors.FromScalar(float32(v)))
	}
	return out, nil
}

// releaseBuffers lets the collector reclaim the buffers the backend pools
// for reuse, where it can (the Go backend's ReleaseBuffers): the
// micro-batches' lengths differ, so the last one's activations rarely fit
// the next: in the first update of a 135M run with two sequences per
// micro-batch, the heap reached 7.3 GB with them pooled and 6.1 GB with
// them released (GODEBUG=gctrace=1; docs/performance.md, "The RL step").
func (u *Updater) releaseBuffers() {
	if r, ok := u.m.Backend().(interface{ ReleaseBuffers() }); ok {
		r.ReleaseBuffers()
	}
}

// objectiveLoss is the objective on a (micro-)batch of tokens [B, T]
// given the weights; inputs are batchArgs' after the tokens.
func (u *Updater) objectiveLoss(params []*Node, tokens *Node, inputs []*Node) (loss *Node, metrics []*Node) {
	if obj, ok := u.obj.(ScoreObjective); ok {
		return obj.ScoreLoss(u.m.LabelScores(params, tokens), bindInputs(u.obj.Inputs(), inputs)) // scores [B, T]
	}
	from := inputs[0] // [B]: each row's first target in the window
	in := bindInputs(u.obj.Inputs(), inputs[1:])
	logp, entropy := u.m.WindowLogProbs(params, tokens, from, in.Mask.Shape().Dimensions[1]) // [B, W]
	return u.obj.(LMObjective).Loss(logp, entropy, in)
}

// buildStep is the fused update graph:
// inputs: params, moments, velocities, lr, lr/(1−β1ⁿ), √(1−β2ⁿ), then batchArgs: tokens [B, T], (from [B],) inputs, totals;
// outputs: new params, moments, velocities, loss, grad norm, finite flag, metrics.
func (u *Updater) buildStep(inputs []*Node) []*Node {
	np := len(u.m.Specs())
	params, mom, vel := inputs[:np], inputs[np:2*np], inputs[2*np:3*np]
	lr, stepSize, bc2sqrt, tokens := inputs[3*np], inputs[3*np+1], inputs[3*np+2], inputs[3*np+3]
	loss, metrics := u.objectiveLoss(params, tokens, inputs[3*np+4:])
	grads := Gradient(loss, params...)
	out := adamW(u.opt, u.m.Specs(), params, mom, vel, grads, loss, lr, stepSize, bc2sqrt)
	return append(out, metrics...)
}

// buildGrad0 is the first micro-batch's gradient:
// inputs: params, then batchArgs: tokens [B, T], (from [B],) inputs, totals;
// outputs: ∂loss/∂params, loss, metrics.
func (u *Updater) buildGrad0(inputs []*Node) []*Node {
	np := len(u.m.Specs())
	loss, metrics := u.objectiveLoss(inputs[:np], inputs[np], inputs[np+1:])
	out := Gradient(loss, inputs[:np]...)
	out = append(out, loss)
	return append(out, metrics...)
}

// buildGrad is a later micro-batch's gradient added to the accumulator:
// inputs: params, accumulated gradients, then batchArgs: tokens [B, T], (from [B],) inputs, totals;
// outputs: accumulator + ∂loss/∂params, loss, metrics.
func (u *Updater) buildGrad(inputs []*Node) []*Node {
	np := len(u.m.Specs())
	params, acc, tokens := inputs[:np], inputs[np:2*np], inputs[2*np]
	loss, metrics := u.objectiveLoss(params, tokens, inputs[2*np+1:])
	grads := Gradient(loss, params...)
	out := make([]*Node, np, np+1+len(metrics))
	for i, g := range grads {
		out[i] = Add(acc[i], g)
	}
	out = append(out, loss)
	return append(out, metrics...)
}
