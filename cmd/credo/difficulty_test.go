package main

import (
	"os"
	"strings"
	"testing"

	"github.com/credo-rl/credo/internal/tasktest"
	"github.com/credo-rl/credo/task"
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
	for _, name := range task.Names() {
		tk, err := task.New(name, task.Config{Seed: 1, Dir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		if c, ok := tk.(interface{ Close() error }); ok {
			defer c.Close()
		}
		tu, ok := tk.(task.Tunable)
		if !ok {
			continue
		}
		for _, k := range tu.Knobs() {
			if !strings.Contains(rows[name], "`"+k.Name+"`") {
				t.Errorf("README's difficulty table has no row for %s's %s", name, k.Name)
			}
		}
	}
}

// TestKnobDefaultsAreTheDefault: every task's knobs, each set to the
// default it declares, give the prompts and demonstrations of no
// settings at all, so the defaults --help and README show are the real ones.
func TestKnobDefaultsAreTheDefault(t *testing.T) {
	for _, name := range task.Names() {
		tk, err := task.New(name, task.Config{Seed: 1, Dir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		if c, ok := tk.(interface{ Close() error }); ok {
			defer c.Close()
		}
		tu, ok := tk.(task.Tunable)
		if !ok {
			continue
		}
		var spec []string
		for _, k := range tu.Knobs() {
			spec = append(spec, k.Name+"="+k.Default)
		}
		d, err := task.ParseDifficulty(strings.Join(spec, ","))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		spelled, err := task.New(name, task.Config{Seed: 1, Dir: t.TempDir(), Difficulty: d})
		if err != nil {
			t.Fatalf("%s at its defaults %v: %v", name, spec, err)
		}
		if c, ok := spelled.(interface{ Close() error }); ok {
			defer c.Close()
		}
		if tasktest.Stream(tk, 20, 10) != tasktest.Stream(spelled, 20, 10) {
			t.Errorf("%s: spelling the defaults out (%s) changes the prompts", name, strings.Join(spec, ","))
		}
	}
}
