package task

import (
	"strings"
	"testing"

	"github.com/credo-rl/credo/reward"
)

type lineSteps struct{}

func (lineSteps) Steps(_ Prompt, response string) []Step {
	return []Step{{Start: 0, End: len(response), Correct: true}}
}

// A step labeler registered by name is found without building the task; a
// name without one is not, and a second registration panics.
func TestRegisterSteps(t *testing.T) {
	RegisterSteps("task-test-steps", lineSteps{})
	l, ok := StepsOf("task-test-steps")
	if !ok || len(l.Steps(Prompt{}, "abc")) != 1 {
		t.Fatalf("StepsOf = %v, %v", l, ok)
	}
	if _, ok := StepsOf("task-test-none"); ok {
		t.Error("an unregistered name has a labeler")
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "twice") {
			t.Errorf("duplicate registration: %v", r)
		}
	}()
	RegisterSteps("task-test-steps", lineSteps{})
}

// TestCompose: task.Compose forwards to reward.Compose.
func TestCompose(t *testing.T) {
	if got := Compose("p", []string{"a", "", "b"}); got != "p\n\na\n\nb" {
		t.Errorf("Compose = %q", got)
	}
}

func TestDifficultyRefusedByUntunableTask(t *testing.T) {
	Register("test-untunable", func(Config) (Task, error) { return untunable{}, nil })
	if _, err := New("test-untunable", Config{Difficulty: Difficulty{"x": "1"}}); err == nil || !strings.Contains(err.Error(), "no difficulty settings") {
		t.Fatalf("a task without settings accepted one: %v", err)
	}
	if _, err := New("test-untunable", Config{}); err != nil {
		t.Fatal(err)
	}
}

type untunable struct{}

func (untunable) Name() string                         { return "test-untunable" }
func (untunable) Prompt(Split, int) Prompt             { return Prompt{} }
func (untunable) Rewards() []reward.Verifier           { return nil }
func (untunable) Demos(int, uint64, DemoConfig) []Demo { return nil }
