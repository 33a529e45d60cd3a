package main

import (
	"context"
	"io"

	"github.com/credo-rl/credo/run"
)

func runDemo(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := defaultCompare()
	c.Out = "runs/demo"
	fs, c, err := compareConfig("demo", "credo's main job on its built-in defaults: warms a small policy up on the tool-calling\n"+
		"task, trains GRPO, GDPO, span and MRTPO from it side by side, prints the comparison\n"+
		"table and writes the HTML report. Every flag of `credo compare` applies.", c, args, stdout, stderr)
	if err != nil {
		return err
	}
	return compare(ctx, fs, "demo", args, c, stdout, stderr)
}

func writeText(path, s string) error { return run.WriteFile(path, []byte(s)) }
