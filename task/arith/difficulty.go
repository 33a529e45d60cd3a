package arith

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/credo-rl/credo/task"
)

// knobs are the task's difficulty settings; their defaults give the
// problems the task made before it had settings.
var knobs = []task.Knob{
	{Name: "min_ops", Default: "2", Help: "fewest operations per problem, i.e. steps of the solution (1..6)"},
	{Name: "max_ops", Default: "4", Help: "most operations per problem (min_ops..6)"},
	{Name: "operators", Default: "+-*", Help: "operators drawn from, any of + - * each at most once (e.g. + for sums only)"},
	{Name: "max", Default: "99", Help: "largest operand of + and - (9..999); every result stays within 1..999"},
	{Name: "factor", Default: "12", Help: "largest operand of * (2..99)"},
	{Name: "words", Default: "0.3", Help: "share of problems told as word problems (0..1), among the templates whose operations the other settings allow"},
}

// gen holds the generator's settings.
type gen struct {
	minOps, maxOps int
	ops            string // operators, drawn uniformly
	leaf, factor   int64  // largest operand of + and -, of *
	words          float64
	templates      []*template // the word problems the settings allow
}

// feasibleBudget is the number of leaf draws within which settings must
// give feasibleProblems problems, or New refuses them: settings whose
// results almost never stay within 1..999 (seven factors up to 99) would
// otherwise draw for ever.
const (
	feasibleProblems = 20
	feasibleBudget   = 200_000
)

// newGen reads the settings and checks them.
func newGen(d task.Difficulty) (*gen, error) {
	if err := d.Check("arith", knobs); err != nil {
		return nil, err
	}
	g := &gen{ops: opsString}
	var err error
	if g.minOps, err = d.Int("min_ops", minOps, 1, 6); err != nil {
		return nil, err
	}
	if g.maxOps, err = d.Int("max_ops", maxOps, 1, 6); err != nil {
		return nil, err
	}
	if g.maxOps < g.minOps {
		return nil, fmt.Errorf("difficulty %s: max_ops=%d is below min_ops=%d (set both)", d, g.maxOps, g.minOps)
	}
	if v, ok := d["operators"]; ok {
		if v == "" || strings.Trim(v, "+-*") != "" || strings.Count(v, "+") > 1 || strings.Count(v, "-") > 1 || strings.Count(v, "*") > 1 {
			return nil, fmt.Errorf("difficulty operators=%s: want some of + - * each at most once, e.g. +-", v)
		}
		g.ops = v
	}
	leaf, err := d.Int("max", maxLeaf, 9, maxValue)
	if err != nil {
		return nil, err
	}
	factor, err := d.Int("factor", maxFactor, minFactor, 99)
	if err != nil {
		return nil, err
	}
	g.leaf, g.factor = int64(leaf), int64(factor)
	if g.words, err = d.Float("words", wordShare, 0, 1); err != nil {
		return nil, err
	}
	for i := range templates {
		if g.allows(templates[i].shape()) {
			g.templates = append(g.templates, &templates[i])
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	budget := feasibleBudget
	for range feasibleProblems {
		if _, ok := g.generateWithin(rng, &budget); !ok {
			return nil, fmt.Errorf("difficulty %s: problems whose every result is within 1..%d are too rare at these settings (fewer operations, smaller operands or another operator help)", d, maxValue)
		}
	}
	return g, nil
}

// allows reports whether a word problem's tree has a number of operations
// and operators the settings allow.
func (g *gen) allows(n *node) bool {
	count := 0
	ok := true
	var walk func(n *node)
	walk = func(n *node) {
		if n.op == 0 {
			return
		}
		count++
		ok = ok && strings.IndexByte(g.ops, n.op) >= 0
		walk(n.l)
		walk(n.r)
	}
	walk(n)
	return ok && count >= g.minOps && count <= g.maxOps
}

// Knobs lists the difficulty settings (task.Tunable).
func (t *Task) Knobs() []task.Knob { return knobs }
