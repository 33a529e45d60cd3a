package optim

import (
	"slices"
	"strings"

	"github.com/credo-rl/credo/model"
	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive
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

// adamW is PyTorch's clip_grad_norm_ then AdamW step:
// g ← g·min(1, c/(‖g‖+1e−6)), m ← β1·m + (1−β1)·g, v ← β2·v + (1−β2)·g²,
// p ← p·(1 − lr·λ) − lr/(1−β1ⁿ) · m / (√v/√(1−β2ⁿ) + ε), applied only
// when the loss, the norm and everything written are finite. specs are the
// parameters' (params' order). Outputs: new params, moments, velocities,
// loss, grad norm, finite flag.
func adamW(opt AdamW, specs []model.ParamSpec, params, mom, vel, grads []*Node, loss, lr, stepSize, bc2sqrt *Node) []*Node {
	norm := gradNorm(specs, grads)
	next, m, v := adamWApply(opt, specs, params, mom, vel, grads, norm, lr, stepSize, bc2sqrt)
	// No Where(finite, new, old) here: Step keeps the old tensors when the
	// update is not finite, so selecting in the graph would be three wasted
	// passes over every parameter.
	out := make([]*Node, 0, 3*len(params)+3)
	out = append(append(append(out, next...), m...), v...)
	return append(out, loss, norm, updateFinite(loss, norm, next, m, v))
}

// gradNorm is ‖g‖ over every parameter, its squares summed in the order
// of the parameters' names (byName), so the norm (and so clipping) does
// not depend on the order the parameters are passed in.
func gradNorm(specs []model.ParamSpec, grads []*Node) *Node {
	order := byName(specs)
	sq := ReduceAllSum(Square(grads[order[0]]))
	for _, i := range order[1:] {
		sq = Add(sq, ReduceAllSum(Square(grads[i])))
	}
	return Sqrt(sq)
}

// byName is the parameters' indices in the order of their names: the
// order in which gradNorm and hostNorm add the squares up.
func byName(specs []model.ParamSpec) []int {
	order := make([]int, len(specs))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(specs[a].Name, specs[b].Name) })
	return order
}

// adamWApply is adamW's update given the gradient's norm: the new
// params, moments and velocities, with no check that they are finite.
func adamWApply(opt AdamW, specs []model.ParamSpec, params, mom, vel, grads []*Node, norm, lr, stepSize, bc2sqrt *Node) (next, m, v []*Node) {
	np := len(params)
	scale := OnesLike(norm)
	if opt.ClipNorm > 0 { // PyTorch's clip_grad_norm_: coef = max/(norm+1e-6), at most 1
		scale = Min(scale, Div(Scalar(norm.Graph(), dtypes.Float32, opt.ClipNorm), AddScalar(norm, 1e-6)))
	}
	b1, b2 := opt.Beta1, opt.Beta2
	next, m, v = make([]*Node, np), make([]*Node, np), make([]*Node, np)
	for i, p := range params {
		g := Mul(grads[i], scale)
		m[i] = Add(MulScalar(mom[i], b1), MulScalar(g, 1-b1))
		v[i] = Add(MulScalar(vel[i], b2), MulScalar(Square(g), 1-b2))
		next[i] = p
		if specs[i].Decay && opt.WeightDecay > 0 { // decoupled decay first, as PyTorch does
			next[i] = Mul(p, OneMinus(MulScalar(lr, opt.WeightDecay)))
		}
		denom := AddScalar(Div(Sqrt(v[i]), bc2sqrt), opt.Eps)
		next[i] = Sub(next[i], Mul(stepSize, Div(m[i], denom)))
	}
	return next, m, v
}

// updateFinite is 1 when the loss, the norm and every written weight,
// moment and velocity are finite, else 0 (float32). A finite loss and
// gradient can still give non-finite weights or moments (a learning rate
// of 3e38 overflows the step size). A sum is finite exactly when its terms
// are (short of a sum beyond 3.4e38, which no trainable weights reach),
// and costs one pass where IsFinite and LogicalAll cost two.
func updateFinite(loss, norm *Node, next, m, v []*Node) *Node {
	finite := LogicalAnd(IsFinite(loss), IsFinite(norm))
	for i := range next {
		finite = LogicalAnd(finite, IsFinite(Add(Add(ReduceAllSum(next[i]), ReduceAllSum(m[i])), ReduceAllSum(v[i]))))
	}
	return ConvertDType(finite, dtypes.Float32)
}
