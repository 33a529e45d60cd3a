package optim

import (
	"fmt"
	"math"

	"github.com/credo-rl/credo/model"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive
	"github.com/gomlx/gomlx/core/tensors"
)

// chunkBytes bounds the parameters one chunk of chunkedUpdate holds: its
// graphs keep a few temporaries the size of their chunk (the backend runs
// every operation that is ready, so one graph over all 135M parameters
// held ~2.9 GB of them at once, more than the weights and moments).
const chunkBytes = 64 << 20

// chunks splits the parameters, in Specs order, into runs of at most
// chunkBytes of float32 (a larger parameter is a chunk of its own).
func chunks(specs []model.ParamSpec) [][]int {
	var out [][]int
	var cur []int
	size := 0
	for i, p := range specs {
		if len(cur) > 0 && size+4*p.Size() > chunkBytes {
			out, cur, size = append(out, cur), nil, 0
		}
		cur, size = append(cur, i), size+4*p.Size()
	}
	return append(out, cur)
}

// chunkedUpdate is adamW over an accumulated gradient, run a chunk of
// parameters at a time and in place: Σ‖g‖² per parameter ("sumsq"), the
// norm on the host (in the parameters' name order, float32, as gradNorm
// adds them), then whether every weight, moment and velocity the update
// would write is finite ("check", scalars only), and only then the update
// itself over the donated weights, moments and gradient ("apply"), so a
// skipped update never overwrites what Step keeps. It owns grads. Outputs
// are adamW's: new params, moments, velocities (nil when skipped), loss,
// grad norm, finite flag.
func (u *Updater) chunkedUpdate(grads []*tensors.Tensor, loss float32, hyper []any) (out []*tensors.Tensor, err error) {
	specs := u.m.Specs()
	np := len(specs)
	defer func() {
		for _, g := range grads {
			if g != nil {
				g.FinalizeAll()
			}
		}
	}()
	parts := chunks(specs)
	sq := make([]float32, np)
	for c, idx := range parts {
		res, err := u.call(fmt.Sprintf("sumsq%d", c), buildSumSq, nil, anys(pick(grads, idx)))
		if err != nil {
			return nil, err
		}
		for j, x := range res {
			sq[idx[j]] = tensors.MustCopyFlatData[float32](x)[0]
			x.FinalizeAll()
		}
	}
	norm := hostNorm(specs, sq)
	finite := !notFinite32(loss) && !notFinite32(norm)
	for c, idx := range parts {
		if !finite {
			break
		}
		args := append(anys(u.chunkState(idx, grads)), hyper...)
		res, err := u.call(fmt.Sprintf("check%d", c), u.buildChunk(idx, false), nil, append(args, norm))
		if err != nil {
			return nil, err
		}
		finite = tensors.MustCopyFlatData[float32](res[0])[0] != 0
		res[0].FinalizeAll()
	}
	out = make([]*tensors.Tensor, 3*np, 3*np+3)
	flag := float32(0)
	if finite {
		flag = 1
		for c, idx := range parts {
			state, err := u.donate(u.chunkState(idx, grads))
			if err != nil {
				return nil, err
			}
			for _, i := range idx {
				grads[i] = nil // donated
			}
			res, err := u.call(fmt.Sprintf("apply%d", c), u.buildChunk(idx, true), nil, append(append(state, hyper...), norm))
			if err != nil {
				return nil, err
			}
			for j, i := range idx {
				out[i], out[np+i], out[2*np+i] = res[j], res[len(idx)+j], res[2*len(idx)+j]
			}
		}
	}
	return append(out, tensors.FromScalar(loss), tensors.FromScalar(norm), tensors.FromScalar(flag)), nil
}

// chunkState is a chunk's weights, moments, velocities and gradients.
func (u *Updater) chunkState(idx []int, grads []*tensors.Tensor) []*tensors.Tensor {
	out := pick(u.m.Weights(), idx)
	out = append(out, pick(u.mom, idx)...)
	out = append(out, pick(u.vel, idx)...)
	return append(out, pick(grads, idx)...)
}

// pick is ts[idx[0]], ts[idx[1]], ….
func pick[T any](ts []T, idx []int) []T {
	out := make([]T, len(idx))
	for j, i := range idx {
		out[j] = ts[i]
	}
	return out
}

// hostNorm is gradNorm from each parameter's Σg²: √ of their float32 sum
// in byName's order.
func hostNorm(specs []model.ParamSpec, sq []float32) float32 {
	order := byName(specs)
	s := sq[order[0]]
	for _, i := range order[1:] {
		s += sq[i]
	}
	return float32(math.Sqrt(float64(s)))
}

// notFinite32 is true for ±Inf and NaN.
func notFinite32(x float32) bool {
	f := float64(x)
	return math.IsInf(f, 0) || math.IsNaN(f)
}

// buildSumSq is Σg² of each gradient given: inputs: gradients; outputs:
// one scalar each.
func buildSumSq(grads []*Node) []*Node {
	out := make([]*Node, len(grads))
	for i, g := range grads {
		out[i] = ReduceAllSum(Square(g))
	}
	return out
}

// buildChunk is adamWApply over the chunk idx: inputs: its params,
// moments, velocities, gradients, then lr, lr/(1−β1ⁿ), √(1−β2ⁿ), the grad
// norm; outputs: with apply, the new params, moments and velocities;
// without, 1 when all of them are finite, else 0 (updateFinite, the loss
// and norm checked by the caller).
func (u *Updater) buildChunk(idx []int, apply bool) func([]*Node) []*Node {
	specs := pick(u.m.Specs(), idx)
	return func(in []*Node) []*Node {
		n := len(idx)
		params, mom, vel, grads := in[:n], in[n:2*n], in[2*n:3*n], in[3*n:4*n]
		lr, stepSize, bc2sqrt, norm := in[4*n], in[4*n+1], in[4*n+2], in[4*n+3]
		next, m, v := adamWApply(u.opt, specs, params, mom, vel, grads, norm, lr, stepSize, bc2sqrt)
		if apply {
			return append(append(next, m...), v...)
		}
		return []*Node{updateFinite(ZerosLike(norm), norm, next, m, v)}
	}
}

// donate hands ts's buffers to the next graph call, which may write its
// outputs over them; ts are no longer usable after it.
func (u *Updater) donate(ts []*tensors.Tensor) ([]any, error) {
	out := make([]any, len(ts))
	for i, x := range ts {
		d, err := DonateTensorBuffer(x, u.m.Backend(), 0)
		if err != nil {
			return nil, fmt.Errorf("donate buffer: %w", err)
		}
		out[i] = d
	}
	return out, nil
}

// anys is ts as graph arguments.
func anys(ts []*tensors.Tensor) []any {
	out := make([]any, len(ts))
	for i, x := range ts {
		out[i] = x
	}
	return out
}
