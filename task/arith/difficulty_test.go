package arith

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/credo-rl/credo/task"
	"github.com/credo-rl/credo/task/tasktest"
)

// mk builds the task at the default difficulty.
func mk(seed uint64) *Task {
	tk, err := New(task.Config{Seed: seed})
	if err != nil {
		panic(err)
	}
	return tk.(*Task)
}

func tuned(t *testing.T, spec string) *Task {
	t.Helper()
	return tasktest.Tuned(t, "arith", spec).(*Task)
}

// problemStats summarises 500 training problems of a setting.
type problemStats struct {
	minSteps, maxSteps int
	ops                map[byte]int
	maxLeaf, maxFactor int64 // largest prompt number under + or -, under *
	words              int   // word problems
}

func statsOf(tk *Task) problemStats {
	s := problemStats{minSteps: 1 << 30, ops: map[byte]int{}}
	for i := range 500 {
		p := tk.Prompt(task.Train, i)
		ref := p.Ref.(Ref)
		s.minSteps, s.maxSteps = min(s.minSteps, len(ref.Solution)), max(s.maxSteps, len(ref.Solution))
		if !strings.HasPrefix(p.Text, "Compute ") {
			s.words++
		}
		for _, st := range ref.Solution {
			s.ops[st.Op]++
			for j, v := range []int64{st.A, st.B} {
				if st.From[j] != -1 {
					continue // an earlier step's result
				}
				if st.Op == '*' {
					s.maxFactor = max(s.maxFactor, v)
				} else {
					s.maxLeaf = max(s.maxLeaf, v)
				}
			}
		}
	}
	return s
}

// Each setting changes the problems the stated way, and only within its
// bounds; the default reaches those bounds, so the checks could fail.
func TestKnobsChangeProblems(t *testing.T) {
	def := statsOf(tuned(t, ""))
	if def.minSteps != 2 || def.maxSteps != 4 || len(def.ops) != 3 || def.maxLeaf <= 50 || def.maxFactor != 12 || def.words < 100 {
		t.Fatalf("default problems %+v", def)
	}
	for _, c := range []struct {
		spec  string
		check func(s problemStats) bool
	}{
		{"min_ops=1,max_ops=1", func(s problemStats) bool { return s.minSteps == 1 && s.maxSteps == 1 && s.words == 0 }},
		{"min_ops=5,max_ops=6", func(s problemStats) bool { return s.minSteps == 5 && s.maxSteps == 6 && s.words == 0 }},
		{"min_ops=3,max_ops=3", func(s problemStats) bool { return s.minSteps == 3 && s.maxSteps == 3 && s.words > 0 }},
		{"operators=+", func(s problemStats) bool { return len(s.ops) == 1 && s.ops['+'] > 0 && s.words == 0 }},
		{"operators=*-", func(s problemStats) bool { return s.ops['+'] == 0 && s.ops['*'] > 0 && s.ops['-'] > 0 && s.words > 0 }},
		{"max=20", func(s problemStats) bool { return s.maxLeaf <= 20 && s.maxLeaf >= 15 }},
		{"max=500", func(s problemStats) bool { return s.maxLeaf > 99 }},
		{"factor=5", func(s problemStats) bool { return s.maxFactor == 5 }},
		{"factor=30", func(s problemStats) bool { return s.maxFactor > 12 }},
		{"words=0", func(s problemStats) bool { return s.words == 0 }},
		{"words=1", func(s problemStats) bool { return s.words == 500 }},
	} {
		if s := statsOf(tuned(t, c.spec)); !c.check(s) {
			t.Errorf("%s: problems %+v", c.spec, s)
		}
	}
}

// At other settings the demonstrations still fail exactly the rewards
// they list.
func TestDemosAtSettings(t *testing.T) {
	for _, spec := range []string{"min_ops=1,max_ops=1", "min_ops=5,max_ops=6,max=300", "operators=+,words=1"} {
		tk := tuned(t, spec)
		for _, d := range tk.demos(300, 2, task.DemoConfig{DefaultFlawRate: 0.3, BlockRate: 0.3}) {
			for _, v := range tk.Rewards() {
				vd, err := v.Verify(context.Background(), d.prompt, d.Response)
				if err != nil {
					t.Fatal(err)
				}
				if slices.Contains(d.Flaws, v.Name()) != (vd.Score == 0) {
					t.Fatalf("%s: %q\n%s: score %g (%s), flaws %v", spec, d.Response, v.Name(), vd.Score, vd.Reason, d.Flaws)
				}
			}
		}
	}
}

func TestBadSettings(t *testing.T) {
	tasktest.Refuses(t, "arith", "min_ops=0", "min_ops=7", "max_ops=1", "min_ops=5,max_ops=4", "operators=/", "operators=++",
		"max=8", "max=1000", "factor=1", "factor=100", "words=1.5", "words=x", "level=2",
		"operators=*,factor=99,min_ops=6,max_ops=6", "min_ops=5")
}
