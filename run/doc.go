// Package run owns a training run's directory and the one schema of its
// files: the resolved configuration (Info is the part readers need), one
// Metrics line per step, a few Sample lines per step, checkpoints, and a
// comparison's Manifest. rl writes these types and report reads them, so
// a field added here reaches both.
//
// Every file is written to a temporary name and renamed, so a run killed
// at any moment leaves only whole files behind. A resumed run cuts its
// logs back to its checkpoint; a log that is damaged, has a gap or repeats
// a step is an error naming the file and the line, and is never rewritten.
//
// It imports reward (the verdicts in samples.jsonl) and internal/atomicfile;
// rl writes what it defines and report reads it.
//
// It needs no GoMLX (go list -deps names none).
package run
