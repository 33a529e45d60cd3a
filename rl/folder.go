package rl

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/credo-rl/credo/ckpt"
	"github.com/credo-rl/credo/internal/settings"
	"github.com/credo-rl/credo/run"
)

// The run folder's code is package ckpt; what is here is what only the
// trainer's Config can say: which settings a resume may change and how
// its paths and judges compare.

type (
	// ResumeConflict is a resume that would change settings that make the
	// run what it is (ckpt.ResumeConflict).
	ResumeConflict = ckpt.ResumeConflict
	// ResumeRecord is one resume that changed settings (ckpt.ResumeRecord).
	ResumeRecord = ckpt.ResumeRecord
	// Change is one setting a resume changed (ckpt.Change).
	Change = ckpt.Change
	// checkpointState is a checkpoint's state.json.
	checkpointState = ckpt.State
)

// RunConfigFile is the checkpoint's copy of the run's config.json, and
// ResumesFile the run's record of resumes that changed settings.
const (
	RunConfigFile = ckpt.RunConfigFile
	ResumesFile   = ckpt.ResumesFile
	checksumsFile = ckpt.ChecksumsFile
)

func checkpointName(step int) string                 { return ckpt.Name(step) }
func checkpointSteps(root string) ([]int, error)     { return ckpt.Steps(root) }
func latestCheckpoint(out string) (string, error)    { return ckpt.Latest(out) }
func judgeSecrets(judges []string) settings.Problems { return ckpt.JudgeSecrets(judges) }

// WithMissingChecksums lets a resume continue from a checkpoint whose
// checksums.json is gone although the run writes one: its files cannot be
// verified. The resume says so and records it in resumes.json.
func WithMissingChecksums() Option { return func(t *Trainer) { t.acceptNoChecksums = true } }

// JudgeMayChange lists the keys of a judge spec a resumed run may change.
func JudgeMayChange() []string { return ckpt.JudgeMayChange() }

// ResumeMayChange lists, by config.json key, the settings a resumed run
// may change; a resume that changes any other is refused.
func ResumeMayChange() []string { return slices.Clone(resumeMayChange) }
func absPath(p string) string   { return ckpt.AbsPath(p) }

// resumeMayChange are the settings a resumed run may change: how long it
// runs (steps, which also stretches the learning-rate schedule), how it
// evaluates, checkpoints, logs and runs its verifiers, and how it splits a
// batch to fit memory (the update is the same to float32 rounding); a
// judge's keys are ckpt.JudgeMayChange. Every other setting makes the run
// what it is: resuming with another value would silently continue a
// different run under the old one's name.
var resumeMayChange = []string{
	"block_every", "checkpoint_every", "eval_every", "eval_prompts", "eval_samples", "keep_checkpoints",
	"max_verify_errors", "memory_budget", "micro_batch", "samples_per_step", "steps", "verify_timeout", "verify_workers",
}

// resumeCompare compares the configuration a run is resumed with against
// the one it was started with: paths by what they point to, judges key by
// key, every other setting as ckpt.Diff does. It returns now with its
// paths resolved (absolute), the changes a resume may make and a
// settings.Problem for each setting it may not change.
func resumeCompare(saved, now Config) (Config, []Change, settings.Problems) {
	var changes []Change
	var refused settings.Problems
	savedOut, nowOut := absPath(saved.Out), absPath(now.Out)
	if !ckpt.SamePlace(savedOut, nowOut) {
		changes = append(changes, Change{Key: "out", From: saved.Out, To: nowOut}) // moved or copied
	}
	now.Out = nowOut
	for _, f := range []struct {
		key      string
		was, now *string
	}{{"init", &saved.Init, &now.Init}, {"prm", &saved.PRM, &now.PRM}, {"records", &saved.Records, &now.Records}} {
		resolved, ch, p := ckpt.PathDiff(f.key, *f.was, *f.now, saved.Out, nowOut)
		changes, refused = ckpt.AppendDiff(changes, refused, ch, p)
		*f.now, *f.was = resolved, resolved
	}
	judges, jc, jp := ckpt.JudgesDiff(saved.Judges, now.Judges, saved.Out, nowOut)
	changes, refused = append(changes, jc...), append(refused, jp...)
	now.Judges, saved.Judges, saved.Out = judges, judges, now.Out
	rest, restRefused := ckpt.Diff(saved, now, resumeMayChange, "reward_weights")
	return now, append(changes, rest...), append(refused, restRefused...)
}

// absolutePaths is c with the paths it names absolute (a run started here
// resumes from any working directory).
func absolutePaths(c Config) Config {
	c.Out, c.Init = absPath(c.Out), absPath(c.Init)
	if c.PRM != "" {
		c.PRM = absPath(c.PRM)
	}
	if c.Records != "" {
		c.Records = absPath(c.Records)
	}
	c.Judges = ckpt.AbsRubrics(c.Judges)
	return c
}

// LoadRunConfig reads the configuration a run directory was started with
// (its config.json, over the defaults for settings it predates).
func LoadRunConfig(dir string) (Config, error) {
	c := DefaultConfig()
	if err := ckpt.LoadConfig(dir, func(path string) error { return LoadConfigFile(path, &c) }); err != nil {
		return Config{}, err
	}
	return c, nil
}

// checkRunConfig holds the run's config.json against the copy checkpoint
// dir was written with (ckpt.CheckPin): a hand edit of a setting a resume
// may not change is refused.
func (t *Trainer) checkRunConfig(dir string) error {
	path := filepath.Join(t.c.Out, run.ConfigFile)
	return ckpt.CheckPin(dir, path, func(then, now []byte) (settings.Problems, error) {
		a, b := DefaultConfig(), DefaultConfig()
		if err := DecodeConfig(filepath.Join(dir, RunConfigFile), then, &a); err != nil {
			return nil, fmt.Errorf("resume from %s: %w", dir, err)
		}
		if err := DecodeConfig(path, now, &b); err != nil {
			return nil, fmt.Errorf("resume: %w", err)
		}
		_, _, refused := resumeCompare(a, b)
		return refused, nil
	})
}
