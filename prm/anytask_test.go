package prm

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/task"
)

// countTask is a task with steps that is not arith: "count from 1 to N",
// one number per line; a line is a correct step when it continues a
// correct count. It corrupts its solutions one way: a number off by one.
type countTask struct{ name string }

// builds counts how often each test task was built.
var builds = map[string]*atomic.Int64{
	"prm-test-count": {}, "prm-test-nosteps": {}, "prm-test-unregistered": {},
}

func init() {
	task.Register("prm-test-count", func(task.Config) (task.Task, error) {
		builds["prm-test-count"].Add(1)
		return countTask{"prm-test-count"}, nil
	})
	task.RegisterSteps("prm-test-count", countTask{})
	task.Register("prm-test-nosteps", func(task.Config) (task.Task, error) {
		builds["prm-test-nosteps"].Add(1)
		return noSteps{}, nil
	})
	// A task that labels steps but never registered its labeler by name.
	task.Register("prm-test-unregistered", func(task.Config) (task.Task, error) {
		builds["prm-test-unregistered"].Add(1)
		return countTask{"prm-test-unregistered"}, nil
	})
}

func (c countTask) Name() string { return c.name }

func (countTask) Prompt(split task.Split, i int) task.Prompt {
	n := 2 + (i+int(split))%4
	return task.Prompt{ID: fmt.Sprintf("count-%s-%d", split, i), Text: fmt.Sprintf("Count from 1 to %d.", n), Ref: n}
}

func (countTask) Rewards() []reward.Verifier                     { return nil }
func (countTask) Demos(int, uint64, task.DemoConfig) []task.Demo { return nil }

func (countTask) Steps(_ task.Prompt, response string) []task.Step {
	var out []task.Step
	ok, start := true, 0
	for j, line := range strings.Split(response, "\n") {
		ok = ok && line == strconv.Itoa(j+1)
		out = append(out, task.Step{Start: start, End: start + len(line), Correct: ok})
		start += len(line) + 1
	}
	return out
}

func (countTask) Corruptions() []string { return []string{"clean", "off-by-one"} }

func (countTask) Corrupt(rng *rand.Rand, p task.Prompt, kind int) (string, bool) {
	n, ok := p.Ref.(int)
	if !ok || kind < 0 || kind > 1 {
		return "", false
	}
	lines := make([]string, n)
	for j := range lines {
		lines[j] = strconv.Itoa(j + 1)
	}
	if kind == 1 {
		j := rng.IntN(n)
		lines[j] = strconv.Itoa(j + 2)
	}
	return strings.Join(lines, "\n"), true
}

type noSteps struct{ countTask }

func (noSteps) Name() string { return "prm-test-nosteps" }

// noSteps hides countTask's Steps, so it labels no steps.
func (noSteps) Steps() {}

// Any task that corrupts its own solutions gives synthetic PRM data: kinds
// are its corruption names, labels its steps; the held-out set takes the
// kinds in turn.
func TestSyntheticAnyTask(t *testing.T) {
	tk := countTask{"prm-test-count"}
	train, err := Synthetic(tk, task.Train, 60, 3)
	if err != nil || len(train) != 60 {
		t.Fatalf("%d examples, %v", len(train), err)
	}
	kinds := map[string]int{}
	for _, ex := range train {
		kinds[ex.Kind]++
		wrong := 0
		for _, s := range ex.Steps {
			if !s.Correct {
				wrong++
			}
		}
		if (ex.Kind == "clean") != (wrong == 0) {
			t.Errorf("%s example %q has %d wrong steps", ex.Kind, ex.Response, wrong)
		}
	}
	if kinds["clean"] < 15 || kinds["off-by-one"] < 15 {
		t.Errorf("kinds %v", kinds)
	}
	held, err := Synthetic(tk, task.Test, 10, 3)
	if err != nil || len(held) != 10 {
		t.Fatalf("%d held out, %v", len(held), err)
	}
	for i, ex := range held {
		if want := []string{"clean", "off-by-one"}[i%2]; ex.Kind != want || ex.Prompt != tk.Prompt(task.Test, i).Text {
			t.Errorf("held-out %d: %s on %q", i, ex.Kind, ex.Prompt)
		}
	}
	again, _ := Synthetic(tk, task.Train, 60, 3)
	other, _ := Synthetic(tk, task.Train, 60, 4)
	if fmt.Sprint(again) != fmt.Sprint(train) || fmt.Sprint(other) == fmt.Sprint(train) {
		t.Error("synthetic data is not a function of the seed")
	}
}

// A PRM trains on any task with steps, and a PRM folder splits responses
// with the task's registered labeler without building the task (for a task
// without steps, with the separator, also without building it).
func TestTrainAnyTask(t *testing.T) {
	c := quickTrain()
	c.Task = "prm-test-count"
	dir := filepath.Join(t.TempDir(), "prm")
	_, rep, err := Train(context.Background(), c, dir, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Sequences != 64 || len(rep.HeldOut.ByKind) != 2 {
		t.Errorf("report %+v", rep)
	}
	built := builds["prm-test-count"].Load()
	p, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Split("Count from 1 to 3.", "1\n2\n3"); fmt.Sprint(got) != "[[0 1] [2 3] [4 5]]" {
		t.Errorf("steps %v", got)
	}
	if _, err := (Info{Task: "prm-test-nosteps"}).Splitter(); err != nil {
		t.Fatal(err)
	}
	if builds["prm-test-count"].Load() != built || builds["prm-test-nosteps"].Load() != 0 {
		t.Errorf("splitting built a task: %d count builds after training (%d before), %d nosteps", builds["prm-test-count"].Load(), built, builds["prm-test-nosteps"].Load())
	}
	// A task that labels steps but has not registered them cannot make a
	// PRM that splits the same way when loaded: refused, saying why.
	c.Task = "prm-test-unregistered"
	if _, _, err := Train(context.Background(), c, "", &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "task.RegisterSteps") {
		t.Errorf("unregistered labeler: err = %v", err)
	}
}
