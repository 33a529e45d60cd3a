// Command scalingplot turns scripts/scaling.sh's results into Markdown
// tables (on stdout) and an SVG plot: seconds per step and peak memory of
// credo and PyTorch against each sweep's variable, one column of panels per
// sweep, log-log axes. It is a separate program, not awk, so the plot needs
// no package beyond Go's standard library.
//
//	go run ./scripts/scalingplot -in results.tsv -svg docs/scaling.svg > tables.md
//
// The input is tab-separated with a header line; each row is one shape:
//
//	panel  xlabel  series  x  tick  shape  credo_s  torch_s  credo_mib  torch_mib
//
// panel and xlabel name the sweep and its axis, series the model when a
// sweep has several (else empty), x the position on the axis, tick its
// label, shape the shape as BenchmarkTrainShape reads it. A measurement
// that failed or was killed is "-" or starts with ">" (a peak at the kill),
// and is left out of the plot.
//
// It imports only the standard library.
package main
