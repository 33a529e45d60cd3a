package main

import (
	"os"
	"strings"
	"testing"

	"github.com/credo-rl/credo/task"
	"github.com/credo-rl/credo/task/tasktest"
)

// TestReadmeListsEveryKnob: README's difficulty table has a row for every
// difficulty setting of every task, under that task, with its default.
func TestReadmeListsEveryKnob(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Skip("README.md not found beside the module")
	}
	_, table, ok := strings.Cut(string(readme), "**Difficulty settings**")
	if !ok {
		t.Fatal("README has no difficulty settings")
	}
	rows := map[string]string{} // task → its rows
	cur := ""
	for _, line := range strings.Split(table, "\n") {
		if !strings.HasPrefix(line, "| ") {
			if cur != "" {
				break // the end of the table
			}
			continue
		}
		cells := strings.Split(line, "|")
		if name := strings.Trim(strings.TrimSpace(cells[1]), "`"); name != "" {
			cur = name
		}
		rows[cur] += line + "\n"
	}
	for name, tk := range tunables(t) {
		for _, k := range tk.(task.Tunable).Knobs() {
			if !strings.Contains(rows[name], "`"+k.Name+"`") {
				t.Errorf("README's difficulty table has no row for %s's %s", name, k.Name)
			}
		}
	}
}

// tunables builds every registered task that has difficulty settings, by
// name, at the defaults (seed 1, a temporary directory, closed at the end).
func tunables(t *testing.T) map[string]task.Task {
	out := map[string]task.Task{}
	for _, name := range task.Names() {
		tk := tasktest.Tuned(t, name, "")
		if _, ok := tk.(task.Tunable); ok {
			out[name] = tk
		}
	}
	return out
}

// TestKnobDefaultsAreTheDefault: every task's knobs, each set to the
// default it declares, give the prompts and demonstrations of no
// settings at all, so the defaults --help and README show are the real ones.
func TestKnobDefaultsAreTheDefault(t *testing.T) {
	for name, tk := range tunables(t) {
		var spec []string
		for _, k := range tk.(task.Tunable).Knobs() {
			spec = append(spec, k.Name+"="+k.Default)
		}
		spelled := tasktest.Tuned(t, name, strings.Join(spec, ","))
		if tasktest.Stream(tk, 20, 10) != tasktest.Stream(spelled, 20, 10) {
			t.Errorf("%s: spelling the defaults out (%s) changes the prompts", name, strings.Join(spec, ","))
		}
	}
}
