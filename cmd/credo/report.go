package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/credo-rl/credo/report"
)

// runReport is `credo report [flags] DIR`: the HTML report of a run or
// compare directory.
func runReport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	const synopsis = "Writes one self-contained HTML page (no network, no scripts) for a run directory\n" +
		"(`credo train --out`) or a compare directory (`credo compare`): reward curves with\n" +
		"seed bands, the method comparison table, credit diagnostics, and per-token heatmaps\n" +
		"of logged rollouts. The page goes to DIR/report.html unless --out says otherwise;\n" +
		"the written path is printed."
	fs := newFlags("report", synopsis, stdout, stderr)
	fs.UsageLine = "Usage: credo report [flags] DIR"
	out := fs.String("out", "", "write the page to this file instead of DIR/report.html")
	threshold := new(float64)
	fs.FloatVar(threshold, "threshold", "", "training reward the moving mean must reach (0: compare.json's, else 0.8)")
	window := fs.Int("window", 0, "moving-mean window in steps (0: compare.json's, else 5)")
	dirs, err := fs.ParsePositional(args)
	if err != nil {
		return err
	}
	if len(dirs) != 1 {
		return usageError{Err: fmt.Errorf("want exactly one run or compare directory, got %d arguments %q", len(dirs), dirs)}
	}
	if *threshold < 0 || *window < 0 {
		return usageError{Err: fmt.Errorf("--threshold and --window must not be negative")}
	}
	c, err := report.Load(dirs[0])
	if err != nil && !exists(filepath.Join(dirs[0], "compare.json")) && !exists(filepath.Join(dirs[0], "config.json")) {
		return usageError{Err: err} // a folder named by mistake: bad usage, exit 2
	}
	if err != nil {
		return err
	}
	if *threshold > 0 {
		c.Threshold = *threshold
	}
	if *window > 0 {
		c.Window = *window
	}
	path := *out
	if path == "" {
		path = filepath.Join(dirs[0], "report.html")
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := report.Save(c, path); err != nil {
		return err
	}
	fmt.Fprintln(stdout, path)
	return nil
}
