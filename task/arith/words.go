package arith

import "fmt"

// template is a word problem with a fixed expression shape. Its text
// names the prompt numbers in the tree's left-to-right leaf order, so the
// canonical steps follow the story.
type template struct {
	shape func() *node
	text  func(name string, v []int64) string
}

// names vary the word problems without adding digits to them.
var names = []string{"Sam", "Mia", "Tom", "Ana", "Leo", "Ivy", "Ben", "Zoe"}

func leaf() *node                            { return &node{} }
func op(o byte, l, r *node) *node            { return &node{op: o, l: l, r: r} }
func sum(l, r *node) *node                   { return op('+', l, r) }
func diff(l, r *node) *node                  { return op('-', l, r) }
func prod(l, r *node) *node                  { return op('*', l, r) }
func leaves2(f func(l, r *node) *node) *node { return f(leaf(), leaf()) }

var templates = []template{
	{ // a + b * c
		shape: func() *node { return sum(leaf(), leaves2(prod)) },
		text: func(n string, v []int64) string {
			return fmt.Sprintf("%s has %d marbles and buys %d bags of %d marbles each. How many marbles does %s have now?", n, v[0], v[1], v[2], n)
		},
	},
	{ // a * b - c
		shape: func() *node { return diff(leaves2(prod), leaf()) },
		text: func(n string, v []int64) string {
			return fmt.Sprintf("%s's shelf has %d rows of %d books. %d books are taken away. How many books are left?", n, v[0], v[1], v[2])
		},
	},
	{ // a + b - c
		shape: func() *node { return diff(leaves2(sum), leaf()) },
		text: func(n string, v []int64) string {
			return fmt.Sprintf("%s had %d stickers, got %d more, then gave %d away. How many stickers does %s have?", n, v[0], v[1], v[2], n)
		},
	},
	{ // a * b + c * d
		shape: func() *node { return sum(leaves2(prod), leaves2(prod)) },
		text: func(n string, v []int64) string {
			return fmt.Sprintf("%s's hall has %d tables with %d chairs each and %d tables with %d chairs each. How many chairs are there?", n, v[0], v[1], v[2], v[3])
		},
	},
	{ // (a + b) * c
		shape: func() *node { return prod(leaves2(sum), leaf()) },
		text: func(n string, v []int64) string {
			return fmt.Sprintf("%s's shop sells %d red pens and %d blue pens each day. How many pens does it sell in %d days?", n, v[0], v[1], v[2])
		},
	},
	{ // a - b + c - d
		shape: func() *node { return diff(sum(leaves2(diff), leaf()), leaf()) },
		text: func(n string, v []int64) string {
			return fmt.Sprintf("%s's bus starts with %d people. At the first stop %d get off and %d get on. At the second stop %d get off. How many people are on the bus?", n, v[0], v[1], v[2], v[3])
		},
	},
	{ // a * b - c + d
		shape: func() *node { return sum(diff(leaves2(prod), leaf()), leaf()) },
		text: func(n string, v []int64) string {
			return fmt.Sprintf("Each crate holds %d melons. %s fills %d crates, sells %d melons, then picks %d more. How many melons does %s have?", v[0], n, v[1], v[2], v[3], n)
		},
	},
}
