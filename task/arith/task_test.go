package arith

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/credo-rl/credo/task"
)

// evalExpr is an independent reference for rendered expressions: a
// recursive-descent parser of + - * and parentheses (left-associative,
// * binding tighter) that lists its steps in post-order.
type evalExpr struct {
	s     string
	i     int
	steps []Eq
}

func (e *evalExpr) skip() {
	for e.i < len(e.s) && e.s[e.i] == ' ' {
		e.i++
	}
}

func (e *evalExpr) sum(t *testing.T) int64 {
	v := e.prod(t)
	for e.skip(); e.i < len(e.s) && (e.s[e.i] == '+' || e.s[e.i] == '-'); e.skip() {
		op := e.s[e.i]
		e.i++
		w := e.prod(t)
		r := v + w
		if op == '-' {
			r = v - w
		}
		e.steps = append(e.steps, Eq{v, w, r, op})
		v = r
	}
	return v
}

func (e *evalExpr) prod(t *testing.T) int64 {
	v := e.atom(t)
	for e.skip(); e.i < len(e.s) && e.s[e.i] == '*'; e.skip() {
		e.i++
		w := e.atom(t)
		e.steps = append(e.steps, Eq{v, w, v * w, '*'})
		v *= w
	}
	return v
}

func (e *evalExpr) atom(t *testing.T) int64 {
	e.skip()
	if e.i < len(e.s) && e.s[e.i] == '(' {
		e.i++
		v := e.sum(t)
		e.skip()
		if e.i >= len(e.s) || e.s[e.i] != ')' {
			t.Fatalf("%q: want ) at %d", e.s, e.i)
		}
		e.i++
		return v
	}
	j := e.i
	for e.i < len(e.s) && isDigit(e.s[e.i]) {
		e.i++
	}
	v, err := strconv.ParseInt(e.s[j:e.i], 10, 64)
	if err != nil {
		t.Fatalf("%q at %d: %v", e.s, j, err)
	}
	return v
}

func TestRegistered(t *testing.T) {
	if !slices.Contains(task.Names(), "arith") {
		t.Fatalf("arith not among %v", task.Names())
	}
	tk, err := task.New("arith", task.Config{Seed: 1})
	if err != nil || tk.Name() != "arith" {
		t.Fatalf("task.New: %v, %v", tk, err)
	}
	if _, ok := tk.(task.StepLabeler); !ok {
		t.Fatal("arith is not a StepLabeler")
	}
	var names []string
	for _, v := range tk.Rewards() {
		names = append(names, v.Name())
	}
	if !slices.Equal(names, []string{"answer", "format"}) {
		t.Fatalf("rewards %v", names)
	}
}

// Every generated prompt: 2–4 steps in the canonical order an independent
// evaluator finds, values in 1..999, the prompt's numbers in its text, and
// a canonical response that scores 1 on both rewards with every step correct.
func TestGeneratedPrompts(t *testing.T) {
	tk := mk(42)
	words := 0
	for _, split := range []task.Split{task.Train, task.Test} {
		for i := range 1000 {
			p := tk.Prompt(split, i)
			ref := p.Ref.(Ref)
			if n := len(ref.Solution); n < minOps || n > maxOps {
				t.Fatalf("%s: %d steps", p.Text, n)
			}
			ev := &evalExpr{s: ref.Expr}
			if v := ev.sum(t); ev.i != len(ref.Expr) || strconv.FormatInt(v, 10) != ref.Answer {
				t.Fatalf("%q evaluates to %d (stopped at %d), reference %s", ref.Expr, v, ev.i, ref.Answer)
			}
			for k, s := range ref.Solution {
				if s.Eq != ev.steps[k] || !s.Holds() || s.C < 1 || s.C > maxValue {
					t.Fatalf("%q step %d = %v, evaluator %v", ref.Expr, k, s.Eq, ev.steps[k])
				}
			}
			if got := promptNumbers(p.Text); !slices.Equal(got, ref.Numbers) {
				t.Fatalf("%q: numbers %v, text has %v", p.Text, ref.Numbers, got)
			}
			if p.Text != "Compute "+ref.Expr+"." {
				words++
			}
			resp := ref.Response()
			for _, v := range tk.Rewards() {
				if vd, err := v.Verify(context.Background(), p, resp); err != nil || vd.Score != 1 {
					t.Fatalf("%s on %q: %+v, %v", v.Name(), resp, vd, err)
				}
			}
			for _, s := range tk.Steps(p, resp) {
				if !s.Correct {
					t.Fatalf("%q: step %q wrong", resp, resp[s.Start:s.End])
				}
			}
			if n := len(resp); n < 25 || n > 100 {
				t.Errorf("%q: %d bytes", resp, n)
			}
		}
	}
	if share := float64(words) / 2000; share < wordShare-0.05 || share > wordShare+0.05 {
		t.Errorf("word problems %.3f of prompts, want about %g", share, wordShare)
	}
}

func TestSplitsDisjoint(t *testing.T) {
	tk := mk(3)
	const n = 3000
	texts := map[string]task.Split{}
	exprs := map[string]task.Split{}
	ids := map[string]bool{}
	for _, split := range []task.Split{task.Train, task.Test} {
		for i := range n {
			p := tk.Prompt(split, i)
			expr := p.Ref.(Ref).Expr
			if splitOf(expr) != split {
				t.Fatalf("%s prompt %d %q hashes into %s", split, i, expr, splitOf(expr))
			}
			if s, ok := texts[p.Text]; ok && s != split {
				t.Fatalf("%q in both splits", p.Text)
			}
			if s, ok := exprs[expr]; ok && s != split {
				t.Fatalf("expression %q in both splits", expr)
			}
			if ids[p.ID] {
				t.Fatalf("duplicate ID %s", p.ID)
			}
			texts[p.Text], exprs[expr], ids[p.ID] = split, split, true
		}
	}
	if len(texts) < 2*n*95/100 {
		t.Errorf("only %d distinct prompts out of %d", len(texts), 2*n)
	}
	// A split value other than Test means Train.
	if got, want := tk.Prompt(task.Split(7), 5), tk.Prompt(task.Train, 5); got.Text != want.Text {
		t.Errorf("Split(7) prompt %q, train %q", got.Text, want.Text)
	}
}

func TestPromptDeterminism(t *testing.T) {
	a, b, c := mk(9), mk(9), mk(10)
	differ := 0
	for _, split := range []task.Split{task.Train, task.Test} {
		for i := range 300 {
			pa, pb := a.Prompt(split, i), b.Prompt(split, i)
			if pa.Text != pb.Text || pa.ID != pb.ID || pa.Ref.(Ref).Response() != pb.Ref.(Ref).Response() {
				t.Fatalf("seed 9 %s %d: %q vs %q", split, i, pa.Text, pb.Text)
			}
			if pa.Text != c.Prompt(split, i).Text {
				differ++
			}
		}
	}
	if differ < 590 {
		t.Errorf("seeds 9 and 10 share %d of 600 prompts", 600-differ)
	}
	if a.Prompt(task.Train, 1).Text == a.Prompt(task.Train, 2).Text {
		t.Error("prompts 1 and 2 are equal")
	}
}

func TestInfixParentheses(t *testing.T) {
	l := func(v int64) *node { return &node{v: v} }
	tests := []struct {
		n    *node
		want string
	}{
		{diff(l(9), diff(l(5), l(2))), "9 - (5 - 2)"},
		{diff(diff(l(9), l(5)), l(2)), "9 - 5 - 2"},
		{sum(l(1), sum(l(2), l(3))), "1 + (2 + 3)"},
		{prod(sum(l(1), l(2)), l(3)), "(1 + 2) * 3"},
		{sum(prod(l(1), l(2)), prod(l(3), l(4))), "1 * 2 + 3 * 4"},
		{prod(l(2), prod(l(3), l(4))), "2 * (3 * 4)"},
	}
	for _, tt := range tests {
		var b strings.Builder
		tt.n.infix(&b)
		if b.String() != tt.want {
			t.Errorf("infix = %q, want %q", b.String(), tt.want)
		}
	}
}
