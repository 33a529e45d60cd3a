package ifeval

import (
	"context"
	"slices"
	"testing"

	"github.com/credo-rl/credo/task"
	"github.com/credo-rl/credo/task/tasktest"
)

func tuned(t *testing.T, spec string) *Task {
	t.Helper()
	return tasktest.Tuned(t, "ifeval", spec).(*Task)
}

// kindsOf counts, over 400 training prompts, the prompts per number of
// constraint kinds and per kind.
func kindsOf(tk *Task) (perCount map[int]int, perKind map[string]int) {
	perCount, perKind = map[int]int{}, map[string]int{}
	for i := range 400 {
		ref := tk.Prompt(task.Train, i).Ref.(*Ref)
		seen := map[string]bool{}
		for _, it := range ref.Items {
			seen[it.Kind] = true
		}
		perCount[len(seen)]++
		for k := range seen {
			perKind[k]++
		}
	}
	return perCount, perKind
}

// min and max bound the number of constraint kinds of every prompt and
// both bounds occur; kinds limits which ones; the default has 2 to 6 of
// all eight, so the checks could fail.
func TestKnobsChangeConstraints(t *testing.T) {
	count, kind := kindsOf(tuned(t, ""))
	if len(count) != 5 || count[2] == 0 || count[6] == 0 || len(kind) != 8 {
		t.Fatalf("default prompts: per count %v, per kind %v", count, kind)
	}
	for _, c := range []struct {
		spec         string
		counts       []int    // every count that occurs
		kinds        []string // every kind that occurs
		minShareKind int      // prompts each kind is in, at least
	}{
		{"min=1,max=1", []int{1}, kindOrder, 20},
		{"min=6,max=8", []int{6, 7, 8}, kindOrder, 250},
		{"kinds=include+end,min=1", []int{1, 2}, []string{KindInclude, KindEnd}, 200},
		{"kinds=words+bullets+title", []int{2, 3}, []string{KindWords, KindBullets, KindTitle}, 200},
	} {
		count, kind := kindsOf(tuned(t, c.spec))
		var counts []int
		for n := range count {
			counts = append(counts, n)
		}
		slices.Sort(counts)
		if !slices.Equal(counts, c.counts) {
			t.Errorf("%s: prompts per number of kinds %v, want counts %v", c.spec, count, c.counts)
		}
		if len(kind) != len(c.kinds) {
			t.Errorf("%s: kinds %v, want %v", c.spec, kind, c.kinds)
		}
		for _, k := range c.kinds {
			if kind[k] < c.minShareKind {
				t.Errorf("%s: %s in %d of 400 prompts, want at least %d", c.spec, k, kind[k], c.minShareKind)
			}
		}
	}
}

// At other settings the demonstrations still fail exactly the rewards
// they list, and rewards of kinds a prompt lacks skip.
func TestDemosAtSettings(t *testing.T) {
	ctx := context.Background()
	for _, spec := range []string{"min=1,max=1", "min=7,max=8", "kinds=include+forbid+end,min=3"} {
		tk := tuned(t, spec)
		for _, d := range tk.demos(300, 4, task.DemoConfig{DefaultFlawRate: 0.3, BlockRate: 0.3}) {
			vs, err := tk.Verify(ctx, d.prompt, d.Response)
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range vs {
				flawed := slices.Contains(d.Flaws, kindOrder[k])
				if (v.Skip && flawed) || (!v.Skip && (v.Score == 0) != flawed) {
					t.Fatalf("%s: %s score %v skip %v, flaws %v (%s):\n%s\n%s", spec, kindOrder[k], v.Score, v.Skip, d.Flaws, v.Reason, d.Prompt, d.Response)
				}
			}
		}
	}
}

func TestBadSettings(t *testing.T) {
	tasktest.Refuses(t, "ifeval", "min=0", "min=9", "max=9", "min=5,max=4", "min=7", "kinds=bold", "kinds=end+end",
		"kinds=end", "kinds=end+title,max=3", "level=2")
}
