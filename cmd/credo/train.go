package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/credo-rl/credo/cmd/credo/internal/cli"
	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/prm"
	"github.com/credo-rl/credo/rl"
	"github.com/credo-rl/credo/task/records"
)

func runTrain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := rl.DefaultConfig()
	fs := newFlags("train", "Trains a warmed-up policy with RL against the task's rewards, giving each reward's\n"+
		"credit to tokens with the chosen method. Writes config.json, metrics.jsonl, samples.jsonl\n"+
		"and checkpoints/ into --out, which must be new or empty. Flags override a --config file.\n"+
		"--resume continues the run in --out with the settings it was started with; only these\n"+
		"may change, and resumes.json records the change:\n  "+strings.Join(resumeFlags(), ", ")+".", stdout, stderr)
	configFile, resume := trainCommand(fs, &c)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := applyBase(fs, args, *configFile, *resume, &c); err != nil {
		return explain(fs, err)
	}
	if !*resume && c.Records != "" {
		c.Task = records.TaskName(c.Format) // the records are the task, whatever --init learned
		s, err := records.Pin(c.Source)     // a resume must find the same file
		if err != nil {
			return usageError{Err: err}
		}
		c.Source = s
	} else if !*resume {
		if err := initTask(fs, *configFile, &c, stderr); err != nil {
			return usageError{Err: err}
		}
	}
	var opts []rl.Option
	if c.PRM != "" {
		inf, err := loadPRM(c.PRM)
		if err != nil {
			return usageError{Err: err}
		}
		opts = append(opts, rl.WithPRM(inf))
	}
	if acceptMissing(fs) {
		opts = append(opts, rl.WithMissingChecksums())
	}
	tr, err := rl.New(ctx, c, *resume, stderr, opts...)
	if err != nil {
		return explain(fs, err)
	}
	limitHeap(heapLimit(int64(c.Memory.Budget), tr.Policy().Model.Config.NumParams()))
	defer tr.Close()
	if err := recordBackend(c.Out, tr.Policy().Model); err != nil { // a resume records the backend it runs on now
		return err
	}
	if tr.Done() {
		fmt.Fprintf(stdout, "%s has finished all %d steps (resume with a larger --steps to go on)\n", c.Out, c.Steps)
		return nil
	}
	err = tr.Run(ctx)
	if errs := tr.VerifyErrors(); len(errs) > 0 {
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(errs)) {
			parts = append(parts, fmt.Sprintf("%s %d", k, errs[k]))
		}
		fmt.Fprintf(stderr, "failed verdicts (scored 0; verify/errors/* in metrics.jsonl): %s\n", strings.Join(parts, ", "))
	}
	var ie *rl.InterruptedError
	switch {
	case errors.As(err, &ie) && ie.Checkpoint == "":
		return interrupted{"\ninterrupted before the first step finished: nothing to keep.\ncontinue with:", []string{"train", "--resume", "--out", c.Out}}
	case errors.As(err, &ie):
		return interrupted{fmt.Sprintf("\ninterrupted after step %d of %d: checkpoint written to %s.\ncontinue with:", ie.Step, c.Steps, ie.Checkpoint), []string{"train", "--resume", "--out", c.Out}}
	case err != nil:
		return err
	}
	fmt.Fprintf(stdout, "trained %s for %d steps with %s: %s\n", c.Task, c.Steps, c.Method, c.Out)
	if ev := tr.LastEval(); len(ev) > 0 {
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(ev)) {
			parts = append(parts, fmt.Sprintf("%s %.3f", k, ev[k]))
		}
		fmt.Fprintf(stdout, "final greedy evaluation on %d test prompts: %s\n", c.EvalPrompts, strings.Join(parts, ", "))
	}
	return nil
}

// initTask points --init at a model folder (a run folder's newest
// checkpoint) and, when neither --task nor a --config file chose the task,
// trains on the task --init was trained on (chooseTask), so `train --init
// runs/demo/warmup` does not silently train a slots policy on toolcall.
func initTask(fs *cli.Flags, configFile string, c *rl.Config, w io.Writer) error {
	if c.Init == "" {
		return nil
	}
	dir, err := modelFolder(c.Init)
	if err != nil {
		return fmt.Errorf("--init: %w", err)
	}
	c.Init = dir
	tc := trainedOn{Task: c.Task, TaskSeed: c.TaskSeed, Difficulty: c.Difficulty, Source: c.Source}
	given := fs.Given
	if configFile != "" { // the file's task stands as if given on the command line
		given = func(string) bool { return true }
	}
	if err := chooseTask(dir, &tc, given, w); err != nil {
		return fmt.Errorf("--init: %w", err)
	}
	c.Task, c.TaskSeed, c.Difficulty, c.Source = tc.Task, tc.TaskSeed, tc.Difficulty, tc.Source
	return nil
}

// acceptMissingFlag accepts a checkpoint whose checksums.json is gone.
const acceptMissingFlag = "accept-missing-checksums"

// acceptMissing reports whether --accept-missing-checksums was given.
func acceptMissing(fs *cli.Flags) bool {
	f := fs.Lookup(acceptMissingFlag)
	return f != nil && f.Value.String() == "true"
}

// resumeFlags are the flags of the settings a resume may change.
func resumeFlags() []string {
	fs := newFlags("train", "", io.Discard, io.Discard)
	c := rl.DefaultConfig()
	trainFlags(fs, &c)
	var out []string
	for _, k := range rl.ResumeMayChange() {
		out = append(out, fs.FlagFor(k))
	}
	return append(out, "and in a --judge spec: "+strings.Join(rl.JudgeMayChange(), "=, ")+"=")
}

// loadPRM opens a process reward model folder as the Influencer that
// methods such as p2t need.
func loadPRM(dir string) (credit.Influencer, error) {
	p, err := prm.Load(dir)
	if err != nil {
		return nil, fmt.Errorf("--prm: %w", err)
	}
	return p, nil
}

// trainCommand defines train's flags over c: every setting's, --config,
// --resume and --accept-missing-checksums (read with acceptMissing).
func trainCommand(fs *cli.Flags, c *rl.Config) (configFile *string, resume *bool) {
	configFile = fs.String("config", "", "JSON or YAML file with any of the settings below (keys as in config.json, - for standard input)")
	resume = fs.Bool("resume", false, "continue the run in --out from its latest checkpoint, with its saved settings")
	fs.Bool(acceptMissingFlag, false, "with --resume: continue from a checkpoint whose checksums.json is gone, unverified (recorded in resumes.json)")
	trainFlags(fs, c)
	backendFlag(fs)
	return configFile, resume
}

// trainFlags binds every training setting to its flag (trainSettings),
// and keeps the former names working.
func trainFlags(fs *cli.Flags, c *rl.Config) {
	fs.Bind(c, "", trainSettings()...)
	// Without --task, train takes the task --init was trained on
	// (initTask): toolcall is only the default of a model that records none.
	if fl := fs.Lookup("task"); fl != nil {
		fl.DefValue = ""
		fl.Usage += " (default: the task --init was trained on, as its warmup.json or run-config.json says; else toolcall)"
	}
	fs.Deprecate(trainAliases)
	trainGroups(fs)
}

// trainGroups sorts train's ~70 flags into sections for --help (issue 27:
// one unordered list). A flag in none of them is listed under "Other".
func trainGroups(fs *cli.Flags) {
	names := func(ss []cli.Setting) []string {
		out := make([]string, len(ss))
		for i, s := range ss {
			out[i] = s.Flag
		}
		return out
	}
	fs.Group("What to train", "init", "out", "task", "task-seed", "difficulty", "method", "prm", "judge", "verifier", "reward-weight",
		"records", "format", "test-fraction", "strict-records",
		"config", "resume", acceptMissingFlag)
	fs.Group("Sampling", "steps", "prompts", "group", "dynamic-sampling", "max-tokens", "temperature", "top-p", "seed")
	fs.Group("Update", append([]string{"lr", "lr-warmup", "lr-min-ratio", "clip-low", "clip-high", "kl-coef", "loss-agg", "updates"},
		append(names(adamSettings()), names(memorySettings())...)...)...)
	fs.Group("Credit (docs/ALGORITHMS.md has every formula)", names(creditSettings())...)
	fs.Group("Verifiers", "verify-workers", "verify-timeout", "max-verify-errors")
	fs.Group("Evaluation, logs and checkpoints", "eval-every", "eval-prompts", "eval-samples", "checkpoint-every",
		"keep-checkpoints", "samples-per-step", "block-every")
}

// applyBase puts the flags given on the command line (args, already
// parsed into c) over a base: the defaults, or with resume the run's
// saved settings; a --config file sits between the two. The flags are
// parsed again over the base, so each keeps its meaning (a list flag
// replaces the base's list, --reward-weight adds to its weights).
func applyBase(fs *cli.Flags, args []string, path string, resume bool, c *rl.Config) error {
	if path == "" && !resume {
		return nil
	}
	base := rl.DefaultConfig()
	if resume {
		out := c.Out
		if out == "" && path != "" { // --out from the config file
			file := rl.DefaultConfig()
			if err := loadTrainConfig(path, &file, io.Discard); err != nil {
				return usageError{Err: fmt.Errorf("--config: %w", err)}
			}
			out = file.Out
		}
		if out == "" {
			return usageError{Err: errors.New("--resume needs --out, the run directory to continue")}
		}
		saved, err := rl.LoadRunConfig(out)
		if err != nil {
			return err
		}
		base = saved
	}
	if path != "" {
		if err := loadTrainConfig(path, &base, fs.Stderr()); err != nil {
			return usageError{Err: fmt.Errorf("--config: %w", err)}
		}
	}
	*c = base
	again := newFlags(fs.Name(), "", io.Discard, io.Discard) // notices were printed by the first parse
	trainCommand(again, c)
	return again.Parse(args)
}
