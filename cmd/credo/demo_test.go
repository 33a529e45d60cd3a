package main

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/credo-rl/credo/task"
)

// TestDemoHelp: `credo help` and `credo demo --help` describe what the
// demo runs (issue 27: help called it "a small comparison on tool
// calling" while it ran slots): the task, its three sums of operands up to
// 5, the methods and the one seed are those of demoCompare.
func TestDemoHelp(t *testing.T) {
	c := demoCompare()
	d, err := task.ParseDifficulty(c.Train.Difficulty)
	if err != nil {
		t.Fatal(err)
	}
	if c.Train.Task != "slots" || c.Warmup.Task != "slots" || d["slots"] != "3" || d["max"] != "5" || c.Seeds != 1 ||
		!slices.Equal(c.Methods, []string{"grpo", "gdpo", "span", "mrtpo"}) {
		t.Fatalf("the demo runs %s (%v) with methods %v and %d seeds: update its descriptions", c.Train.Task, d, c.Methods, c.Seeds)
	}
	ctx := context.Background()
	_, list, _ := credo(ctx, "help")
	var line string
	for _, l := range strings.Split(list, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "demo ") {
			line = l
		}
	}
	_, synopsis, _ := credo(ctx, "demo", "--help")
	for _, want := range []string{"slots", "three sums of operands up to 5", "one reward per line", "grpo, gdpo, span and mrtpo", "one seed each"} {
		if !strings.Contains(line, want) {
			t.Errorf("credo help's demo line %q lacks %q", line, want)
		}
	}
	for _, want := range []string{"slots", "three sums of operands up to 5", "one seed each", "cannot rank methods"} {
		if !strings.Contains(synopsis, want) {
			t.Errorf("credo demo --help lacks %q:\n%s", want, synopsis)
		}
	}
	if strings.Contains(line+synopsis, "tool call") {
		t.Errorf("the demo's description mentions tool calling, which it does not run")
	}
}
