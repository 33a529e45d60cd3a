package passes

import (
	"github.com/gomlx/compute"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/shapeinference"
	"github.com/gomlx/compute/shapes"
)

func init() {
	gobackend.RegisterTransformation(100, &ImplicitBroadcastFusion{})
}

// ImplicitBroadcastFusion removes unnecessary broadcast operations that are followed by binary operations:
// the implicit broadcast is performed as part of the binary operation implementation anyway, so they are not needed.
//
// This can save both temporary buffers and time (in memory-bandwidth) while creating them.
type ImplicitBroadcastFusion struct{}

// Name implements compute.GraphTransformation.
func (p *ImplicitBroadcastFusion) Name() string {
	return "ImplicitBroadcastFusion"
}

// Apply implements compute.GraphTransformation.
//
// The pass iterates over all functions and their nodes and checks if the node is a BroadcastInDim operation whose
// output is used by a binary operation. If so, it uses the input of the broadcast operation directly as input to the
// binary operation.
//
// It doesn't remove the broadcast operation, but it will be eliminated if nobody else is using it at a later step of
// the compilation (dead-code elimination).
//
// Binary operations for which implicit broadcasting applies are defined in
// shapeinference.StandardBinaryOperations and shapeinference.ComparisonOperations.
func (p *ImplicitBroadcastFusion) Apply(b *gobackend.Builder) (bool, error) {
	requiresDAGSort := false
	for _, f := range b.Functions {
		for _, node := range f.Nodes {
			isBinary := shapeinference.AllBinaryOperations.Has(node.OpType)
			isUnary := shapeinference.StandardUnaryOperations.Has(node.OpType)
			isWhere := node.OpType == compute.OpTypeWhere
			if !isBinary && !isUnary && !isWhere {
				continue
			}

			changed := false
			// Binary, Unary, and Where operations for which implicit broadcasting applies.
			for i, input := range node.Inputs {
				if input.OpType != compute.OpTypeBroadcastInDim {
					continue
				}

				// Only fuse if rank doesn't change or if the broadcast input is scalar:
				// implicit broadcasting supports equal ranks and scalar operands.
				if input.Inputs[0].Shape.Rank() == node.Shape.Rank() || input.Inputs[0].Shape.IsScalar() {
					if isBinary && fusionIsGeneral(node, i, input.Inputs[0]) {
						continue
					}
					// Fuse: use the input of the broadcast directly.
					node.Inputs[i] = input.Inputs[0]
					changed = true
				}
			}

			if changed {
				var newShape shapes.Shape
				var err error
				if isWhere {
					newShape, err = shapeinference.Where(node.Inputs[0].Shape, node.Inputs[1].Shape, node.Inputs[2].Shape)
				} else if isBinary {
					if shapeinference.StandardBinaryOperations.Has(node.OpType) {
						newShape, err = shapeinference.BinaryOp(node.OpType, node.Inputs[0].Shape, node.Inputs[1].Shape)
					} else {
						newShape, err = shapeinference.ComparisonOp(node.OpType, node.Inputs[0].Shape, node.Inputs[1].Shape)
					}
				} else {
					newShape, err = shapeinference.UnaryOp(node.OpType, node.Inputs[0].Shape)
				}
				if err != nil {
					return false, err
				}

				if !newShape.Equal(node.Shape) {
					// By skipping the BroadcastInDim nodes (to optimize execution), we may have changed the output of the
					// current node. So we need to create a BroadcastInDim after the changed node.
					// Note that we gain of that, since we perform the operation on a smaller shape.
					oldShape := node.Shape
					node.Shape = newShape

					dims := make([]int, newShape.Rank())
					for i := range dims {
						dims[i] = i
					}

					broadcastNode, _ := f.GetOrCreateNode(compute.OpTypeBroadcastInDim, oldShape, []*gobackend.Node{node}, dims)
					for _, otherNode := range f.Nodes {
						if otherNode == node || otherNode == broadcastNode {
							continue
						}
						for i, input := range otherNode.Inputs {
							if input == node {
								otherNode.Inputs[i] = broadcastNode
							}
						}
					}
					for i, out := range f.Outputs {
						if out == node {
							f.Outputs[i] = broadcastNode
						}
					}
					requiresDAGSort = true
				}
				if isBinary && !node.Inputs[0].Shape.IsDynamic() && !node.Inputs[1].Shape.IsDynamic() && !node.Shape.IsDynamic() {
					cfg := gobackend.DetermineBroadcastConfig(node.Inputs[0].Shape, node.Inputs[1].Shape, node.Shape)
					node.Data = &cfg
				}
			}
		}
	}
	return requiresDAGSort, nil
}

// fusionIsGeneral reports whether using src in place of binary node's
// input i (a BroadcastInDim of src) would leave a broadcast the binary ops
// only do element by element, through an index iterator (BroadcastGeneral:
// a broadcast over a middle axis, such as an attention mask [B, 1, T, S]
// added to scores [B, H, T, S]). Materializing the broadcast once is then
// faster than fusing it, and the explicit broadcast is kept.
func fusionIsGeneral(node *gobackend.Node, i int, src *gobackend.Node) bool {
	lhs, rhs := node.Inputs[0].Shape, node.Inputs[1].Shape
	if i == 0 {
		lhs = src.Shape
	} else {
		rhs = src.Shape
	}
	if lhs.IsDynamic() || rhs.IsDynamic() || node.Shape.IsDynamic() || lhs.IsScalar() || rhs.IsScalar() {
		return false
	}
	var out shapes.Shape
	var err error
	if shapeinference.StandardBinaryOperations.Has(node.OpType) {
		out, err = shapeinference.BinaryOp(node.OpType, lhs, rhs)
	} else {
		out, err = shapeinference.ComparisonOp(node.OpType, lhs, rhs)
	}
	if err != nil {
		return false
	}
	// A middle-axis broadcast has a SIMD loop only in the float32 binary ops; kept explicit, it
	// is a vectorized same-shape op for every dtype and op.
	switch gobackend.DetermineBroadcastConfig(lhs, rhs, out).Pattern {
	case gobackend.BroadcastGeneral, gobackend.BroadcastMiddleRHS, gobackend.BroadcastMiddleLHS:
		return true
	}
	return false
}
