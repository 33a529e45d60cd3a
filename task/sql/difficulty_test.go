package sql

import (
	"testing"

	"github.com/credo-rl/credo/task"
	"github.com/credo-rl/credo/task/tasktest"
)

func tuned(t *testing.T, spec string) *Task {
	t.Helper()
	return tasktest.Tuned(t, "sql", spec).(*Task)
}

// Each setting changes the questions the stated way: the kinds asked and
// the shapes of the reference queries; the default has all of them, so
// the checks could fail. The references still score 1 on every reward.
func TestKnobsChangeQuestions(t *testing.T) {
	type stats struct {
		kinds             map[string]int
		joins, aggregates int
	}
	of := func(tk *Task, check bool) stats {
		s := stats{kinds: map[string]int{}}
		for i := range 300 {
			p := tk.Prompt(task.Train, i)
			ref := p.Ref.(Ref)
			s.kinds[ref.Kind]++
			if joinsTables(ref.Query) {
				s.joins++
			}
			if aggregates(ref.Query) {
				s.aggregates++
			}
			if check && i < 40 {
				for name, vd := range verifyAll(t, tk, p, wellFormed(ref.Think, ref.Query)) {
					if vd.Score != 1 {
						t.Errorf("reference %q scores %g on %s: %s", ref.Query, vd.Score, name, vd.Reason)
					}
				}
			}
		}
		return s
	}
	def := of(tuned(t, ""), false)
	if len(def.kinds) != 4 || def.joins < 30 || def.aggregates < 30 {
		t.Fatalf("default questions %+v", def)
	}
	for _, c := range []struct {
		spec  string
		check func(s stats) bool
	}{
		{"kinds=filter", func(s stats) bool { return len(s.kinds) == 1 && s.kinds["filter"] == 300 && s.joins == 0 }},
		{"kinds=join+group", func(s stats) bool { return len(s.kinds) == 2 && s.kinds["join"] > 100 && s.kinds["group"] > 100 }},
		{"joins=0", func(s stats) bool {
			return len(s.kinds) == 3 && s.kinds["join"] == 0 && s.joins == 0 && s.aggregates > 0
		}},
		{"aggregates=0", func(s stats) bool { return s.aggregates == 0 && s.joins > 0 && s.kinds["group"] == 0 }},
		{"kinds=filter+order,joins=0,aggregates=0", func(s stats) bool {
			return len(s.kinds) == 2 && s.joins == 0 && s.aggregates == 0
		}},
	} {
		if s := of(tuned(t, c.spec), true); !c.check(s) {
			t.Errorf("%s: questions %+v", c.spec, s)
		}
	}
}

func TestBadSettings(t *testing.T) {
	tasktest.Refuses(t, "sql", "kinds=select", "kinds=filter+filter", "kinds=filter+", "joins=2", "aggregates=x", "kinds=join,joins=0", "level=2")
}
