// Package report reads run and compare directories and turns them into the
// method comparison table (Table; Markdown, the full table with Student-t
// intervals, sign-flip p-values, Holm marks, warm-up columns, ratios,
// retention and length; Text, a narrow one for a terminal, with a closing
// line in plain words: Summary) and one self-contained HTML page (Write):
// an introduction to the task, reward curves with seed bands, the table,
// the credit diagnostics, and per-token heatmaps of logged rollouts
// coloured by each reward's relevance and by the final token advantage.
// docs/ALGORITHMS.md §6 states how the table judges methods.
//
// The page is built from an embedded html/template with inline CSS and
// SVG drawn by package report/plot; it names no external URL, so it opens
// offline and makes no network request. Exact values are in SVG <title> and HTML title
// attributes, shown on hover without any script.
//
// The package reads the files rl writes (metrics.jsonl, samples.jsonl,
// evals.jsonl, config.json, compare.json, calibration.json) through
// package run's record types, the ones rl writes with, and does not import
// rl, so rl (or anything else) may import report without a cycle. Its
// statistics are internal/stats'.
//
// It needs no GoMLX (go list -deps names none).
package report
