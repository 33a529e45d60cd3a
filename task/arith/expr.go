package arith

import (
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/credo-rl/credo/task"
)

// Limits of generated problems at the default difficulty: small enough for
// a byte-level policy of a few million parameters to learn the arithmetic.
// The difficulty settings (Knobs) change the first five.
const (
	minOps, maxOps = 2, 4  // operations per problem
	maxLeaf        = 99    // operands of + and -: 1..99
	maxFactor      = 12    // operands of * that are prompt numbers: 2..12
	wordShare      = 0.3   // share of problems told as a word problem
	opsString      = "+-*" // the operators, drawn uniformly
	minFactor      = 2     //
	maxValue       = 999   // every intermediate result and the answer: 1..999
	fillTries      = 50    // leaf draws per tree shape before a new shape
	testModulus    = 5     // one canonical expression in five is a test problem
)

// node is an expression tree: a leaf (op 0) holding a prompt number, or an
// operation on two subtrees.
type node struct {
	op   byte
	v    int64 // a leaf's number, or the operation's value once evaluated
	l, r *node
}

// shape builds a random binary tree with n operations, drawn uniformly
// from ops, and no values.
func shape(rng *rand.Rand, n int, ops string) *node {
	if n == 0 {
		return &node{}
	}
	k := rng.IntN(n)
	return &node{op: ops[rng.IntN(len(ops))], l: shape(rng, k, ops), r: shape(rng, n-1-k, ops)}
}

// fill draws every leaf (2..g.factor under '*', 1..g.leaf elsewhere) and
// evaluates the tree. It reports whether every operation's value is in
// 1..999.
func (g *gen) fill(rng *rand.Rand, n *node, parent byte) bool {
	if n.op == 0 {
		if parent == '*' {
			n.v = minFactor + rng.Int64N(g.factor-minFactor+1)
		} else {
			n.v = 1 + rng.Int64N(g.leaf)
		}
		return true
	}
	okL := g.fill(rng, n.l, n.op)
	okR := g.fill(rng, n.r, n.op)
	v, ok := apply(n.op, n.l.v, n.r.v)
	n.v = v
	return okL && okR && ok && v >= 1 && v <= maxValue
}

func prec(op byte) int {
	switch op {
	case '+', '-':
		return 1
	case '*':
		return 2
	}
	return 3 // a leaf binds tightest
}

// infix writes the expression with the fewest parentheses that still fix
// the tree: a right operand of equal precedence is always parenthesized
// ("a + (b + c)"), so the canonical step order can be read off the text.
func (n *node) infix(b *strings.Builder) {
	if n.op == 0 {
		b.WriteString(strconv.FormatInt(n.v, 10))
		return
	}
	wrap := func(c *node, paren bool) {
		if paren {
			b.WriteByte('(')
		}
		c.infix(b)
		if paren {
			b.WriteByte(')')
		}
	}
	wrap(n.l, prec(n.l.op) < prec(n.op))
	b.WriteByte(' ')
	b.WriteByte(n.op)
	b.WriteByte(' ')
	wrap(n.r, prec(n.r.op) <= prec(n.op))
}

// SolStep is one step of a canonical solution: its equation and where its
// operands come from.
type SolStep struct {
	Eq
	// From holds, for A and B, the index of the earlier step whose result
	// the operand is, or -1 for a number of the prompt.
	From [2]int
}

// solve lists the canonical steps: a post-order walk, left subtree first,
// so every step uses prompt numbers or results of earlier steps. It
// returns the index of n's step, or -1 for a leaf.
func (n *node) solve(steps *[]SolStep) int {
	if n.op == 0 {
		return -1
	}
	fl := n.l.solve(steps)
	fr := n.r.solve(steps)
	*steps = append(*steps, SolStep{Eq: Eq{A: n.l.v, Op: n.op, B: n.r.v, C: n.v}, From: [2]int{fl, fr}})
	return len(*steps) - 1
}

// leaves lists the prompt numbers in left-to-right order.
func (n *node) leaves(out []int64) []int64 {
	if n.op == 0 {
		return append(out, n.v)
	}
	return n.r.leaves(n.l.leaves(out))
}

// problem is a generated prompt before it gets an ID.
type problem struct {
	text string
	ref  Ref
}

// generate draws one problem: a word problem (g.words of them, among the
// templates the settings allow) or a bare expression.
func (g *gen) generate(rng *rand.Rand) problem {
	p, _ := g.generateWithin(rng, nil)
	return p
}

// generateWithin is generate with a budget of leaf draws (nil: none); ok is
// false when the budget ran out first.
func (g *gen) generateWithin(rng *rand.Rand, budget *int) (p problem, ok bool) {
	for {
		var root *node
		var tm *template
		if rng.Float64() < g.words && len(g.templates) > 0 {
			tm = g.templates[rng.IntN(len(g.templates))]
			root = tm.shape()
		} else {
			root = shape(rng, g.minOps+rng.IntN(g.maxOps-g.minOps+1), g.ops)
		}
		for range fillTries {
			if budget != nil {
				if *budget <= 0 {
					return problem{}, false
				}
				*budget--
			}
			if !g.fill(rng, root, 0) {
				continue
			}
			var b strings.Builder
			root.infix(&b)
			expr := b.String()
			var steps []SolStep
			root.solve(&steps)
			nums := root.leaves(nil)
			text := "Compute " + expr + "."
			if tm != nil {
				text = tm.text(names[rng.IntN(len(names))], nums)
			}
			return problem{text: text, ref: Ref{
				Expr:     expr,
				Answer:   strconv.FormatInt(root.v, 10),
				Numbers:  nums,
				Solution: steps,
			}}, true
		}
	}
}

// draw generates problems until one belongs to split. The split is a
// function of the canonical expression alone (never of the seed), so no
// seed ever trains on a test problem.
func (g *gen) draw(rng *rand.Rand, split task.Split) problem {
	if split != task.Test {
		split = task.Train // any other value means the training split, as Split.String says
	}
	for {
		p := g.generate(rng)
		if splitOf(p.ref.Expr) == split {
			return p
		}
	}
}

// splitOf hashes the canonical expression (FNV-1a, 64 bits): one
// expression in five is a test problem.
func splitOf(expr string) task.Split {
	h := uint64(14695981039346656037)
	for i := 0; i < len(expr); i++ {
		h ^= uint64(expr[i])
		h *= 1099511628211
	}
	if h%testModulus == 0 {
		return task.Test
	}
	return task.Train
}
