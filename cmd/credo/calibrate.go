package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/credo-rl/credo/lab"

	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/reward/remote"
	"github.com/credo-rl/credo/rl"
	"github.com/credo-rl/credo/run"
	"github.com/credo-rl/credo/task"
	"github.com/credo-rl/credo/task/records"
)

func runCalibrate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := lab.DefaultCalibrate()
	fs := newFlags("calibrate", "Samples groups from a warmed-up policy on the first training prompts, as RL would,\n"+
		"and reports per reward the pass rate and the share of groups without variance: which\n"+
		"rewards a comparison can judge methods on at this difficulty. Over each reward's failed\n"+
		"verdicts it also reports the share of a response they quote and the share of a uniform\n"+
		"advantage's logit update that already lands there (the focus diagnostic, `credo focus`):\n"+
		"where that is near 100%, GDPO's update already falls where span's would. With --localize\n"+
		"it runs those credit methods on the samples as on a run's first step and reports each\n"+
		"reward's localization (what `compare --min-localization` gates warm-ups on).", stdout, stderr)
	backendFlag(fs)
	dir := fs.String("init", "", "warmed-up policy folder (required)")
	taskName := fs.String("task", "toolcall", "task")
	taskSeed := fs.Uint64("task-seed", 0, "seed of the task's prompt generator and data (as in training)")
	difficulty := fs.String("difficulty", "", "the task's difficulty settings, key=value,… (each task's keys: see README)")
	out := fs.String("out", "", "also write the calibration as JSON to this file")
	fs.IntVar(&c.Prompts, "prompts", c.Prompts, "candidate training prompts (the first N)")
	fs.IntVar(&c.Group, "group", c.Group, "responses per prompt (G), as in training")
	fs.IntVar(&c.MaxTokens, "max-tokens", c.MaxTokens, "new tokens per response")
	fs.FloatVar(&c.Temperature, "temperature", "", "sampling temperature, as in training")
	fs.FloatVar(&c.MaxZeroVar, "max-zero-var", "", "largest share of groups without variance a counted reward may have")
	fs.FloatVar(&c.Saturated, "saturated", "", "pass rate from which a reward is too close to done to be counted")
	fs.Uint64Var(&c.Seed, "seed", c.Seed, "sampling seed")
	var src records.Source
	recordFlags(fs, &src)
	var verifiers []string
	fs.ListVar(&verifiers, "verifier", verifierUsage)
	localize := fs.String("localize", "", "comma-separated credit methods whose localization at the start to measure, such as mrtpo,span (default settings of each)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *localize != "" {
		c.Localize, c.Credit = strings.Split(*localize, ","), rl.DefaultConfig().Credit.Config
	}
	if *dir == "" {
		return usageError{Err: errors.New("--init is required")}
	}
	t, err := records.Build(ctx, *taskName, *taskSeed, *difficulty, src, stderr)
	if err != nil {
		return usageError{Err: err}
	}
	if cl, ok := t.(io.Closer); ok {
		defer cl.Close()
	}
	extra, err := remote.Build(verifiers, t)
	if err != nil {
		return usageError{Err: err}
	}
	vs, err := task.Rewards(ctx, t, nil, extra...)
	if err != nil {
		return explain(fs, err)
	}
	p, err := policy.Load(*dir)
	if err != nil {
		return usageError{Err: fmt.Errorf("--init: %w", err)}
	}
	cal, err := lab.Calibrate(ctx, p, t, vs, c, stderr)
	if err != nil {
		return err
	}
	cal.Difficulty = *difficulty
	if *out != "" {
		if err := run.WriteJSON(*out, cal); err != nil {
			return err
		}
	}
	fmt.Fprint(stdout, calibrationTable(cal))
	return nil
}

// calibrationTable is a calibration as a plain-text table.
func calibrationTable(c run.Calibration) string {
	s := fmt.Sprintf("%s (%d prompts × %d responses)\n%-12s %6s %9s %8s %8s  %s\n", c.Task, c.Prompts, c.Group,
		"reward", "pass", "zero-var", "quoted", "uniform", "counted")
	for _, r := range c.Rewards {
		counted := "yes"
		if !r.Counted {
			counted = "no: " + r.Why
		}
		quoted, uniform := "-", "-"
		if r.Blamed > 0 {
			quoted, uniform = fmt.Sprintf("%.0f%%", 100*r.BlamedTokens), fmt.Sprintf("%.0f%%", 100*r.BlamedUniform)
		}
		s += fmt.Sprintf("%-12s %6.3f %8.0f%% %8s %8s  %s\n", r.Reward, r.Pass, 100*r.ZeroVar, quoted, uniform, counted)
	}
	for _, r := range c.Rewards {
		if len(c.Localized) == 0 {
			break
		}
		var locs []string
		for _, m := range c.Localized {
			loc := "undefined (no variance)"
			if v, ok := r.Localization[m]; ok {
				loc = fmt.Sprintf("%.2f", v)
			}
			locs = append(locs, m+" "+loc)
		}
		s += fmt.Sprintf("localization at the start, %s: %s\n", r.Reward, strings.Join(locs, ", "))
	}
	return s + "quoted: the share of a response its failed verdicts quote; uniform: the share of a uniform advantage's\n" +
		"update that already lands there (credo focus); near 100%, token credit can add little to GDPO\n"
}
