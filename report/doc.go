// Package report reads run and compare directories and turns them into the
// method comparison table (Table, Markdown, Text) and one self-contained
// HTML page (Write): reward curves with seed bands, the table, the credit
// diagnostics, and per-token heatmaps of logged rollouts coloured by each
// reward's relevance and by the final token advantage.
//
// The page is built from an embedded html/template with inline CSS and
// SVG drawn here; it names no external URL, so it opens offline and makes
// no network request. Exact values are in SVG <title> and HTML title
// attributes, shown on hover without any script.
//
// The package reads the files rl writes (metrics.jsonl, samples.jsonl,
// config.json, compare.json) through package run's record types, the ones
// rl writes with, and does not import rl, so rl (or anything else) may
// import report without a cycle.
package report
