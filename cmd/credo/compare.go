package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/report"
	"github.com/credo-rl/credo/rl"
)

func runCompare(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := defaultCompare()
	fs := newFlags("compare", "Warms a policy up once, trains every method with every seed from it on the same\n"+
		"prompts, then prints the comparison table and writes report.html into --out.\n"+
		"Runs are ordinary run directories under --out/runs: an interrupted comparison\n"+
		"continues when the same command is run again, and finished runs are not run again.", stdout)
	compareFlags(fs, &c)
	if err := fs.parse(args); err != nil {
		return err
	}
	return compare(ctx, fs, "compare", args, c, stdout, stderr)
}

// defaultCompare is the comparison `credo demo` runs, sized for minutes
// on 2 cores: a small policy, 4 prompts × 4 responses per step.
func defaultCompare() rl.CompareConfig {
	w := rl.DefaultWarmup()
	// A short warm-up (about 4 minutes): greedy decoding gets the format
	// right, sampling at temperature 1 only about two times in three, and
	// the calls are mostly wrong, so every reward has something left to learn.
	// 120 steps left sampled responses too broken for RL to start from.
	w.Steps, w.Peak, w.WarmupSteps = 160, 4e-3, 10
	t := rl.DefaultConfig()
	t.Steps, t.PromptsPerStep, t.Group, t.MaxTokens = 20, 4, 4, 128
	t.EvalEvery, t.EvalPrompts = 10, 32
	t.CheckpointEvery = 10
	// Every method at GRPO's step size (mean |A| over the batch's tokens),
	// so neither placement nor GDPO's batch normalization decides the race.
	t.Credit.ScaleTo = credit.ScaleToGRPO
	return rl.CompareConfig{
		Methods: []string{"grpo", "gdpo", "span", "mrtpo"}, Seeds: 1,
		Threshold: 0.8, Window: 5, Warmup: w, Train: t, Calibrate: rl.DefaultCalibrate(),
	}
}

func compareFlags(fs *flags, c *rl.CompareConfig) {
	fs.stringVar(&c.Out, "out", "out", "comparison folder (required)")
	fs.Func("task", "task for warm-up and training (default "+c.Train.Task+")", func(s string) error {
		c.Train.Task, c.Warmup.Task = s, s
		return nil
	})
	fs.key("task", "task")
	fs.Func("task-seed", "seed of the task's prompt generator and data (default 0)", func(s string) error {
		var v uint64
		_, err := fmt.Sscan(s, &v)
		c.Train.TaskSeed, c.Warmup.TaskSeed = v, v
		return err
	})
	fs.Func("difficulty", "the task's difficulty settings, key=value,… (each task's keys: see README)", func(s string) error {
		c.Train.Difficulty, c.Warmup.Difficulty = s, s
		return nil
	})
	fs.Func("methods", "comma-separated credit methods (default "+strings.Join(c.Methods, ",")+")", func(s string) error {
		c.Methods = strings.Split(s, ",")
		return nil
	})
	fs.key("methods", "methods")
	fs.intVar(&c.Seeds, "seeds", "seeds", "runs per method, with seeds 1..N")
	fs.floatVar(&c.Threshold, "threshold", "threshold", "training reward whose moving mean counts as reached")
	fs.intVar(&c.Window, "window", "window", "moving-mean window in steps")
	fs.StringVar(&c.Init, "init", c.Init, "reuse this warm-up checkpoint instead of making one")
	fs.stringVar(&c.Train.PRM, "prm", "prm", "process reward model folder, for p2t")
	fs.intVar(&c.Train.Steps, "steps", "steps", "training steps per run")
	fs.intVar(&c.Train.PromptsPerStep, "prompts", "prompts_per_step", "prompts per step")
	fs.intVar(&c.Train.Group, "group", "group", "responses per prompt (G)")
	fs.intVar(&c.Train.DynamicSampling, "dynamic-sampling", "dynamic_sampling", "keep only groups in which some reward varies, sampling up to this many rounds per step (DAPO); 0: off")
	fs.intVar(&c.Train.MaxTokens, "max-tokens", "max_tokens", "new tokens per response")
	fs.floatVar(&c.Train.Peak, "lr", "lr", "RL learning rate")
	fs.floatVar(&c.Train.Credit.Beta, "beta", "credit.beta", "placement β of the token-level methods")
	fs.intVar(&c.Train.Credit.SpanWarmup, "span-warmup", "credit.span_warmup_steps", "span: steps over which β rises from 0")
	fs.intVar(&c.Train.Credit.ReplayWarmup, "replay-warmup", "credit.replay_warmup_steps", "mrtpo: steps over which β rises from 0")
	fs.intVar(&c.Train.EvalEvery, "eval-every", "eval_every", "steps between test-split evaluations")
	fs.intVar(&c.Train.EvalPrompts, "eval-prompts", "eval_prompts", "test prompts per evaluation")
	fs.Func("scale-to", "step size: grpo (every method's batch mean |A| set to GRPO's; default) or raw (each method's own)", func(s string) error {
		switch s {
		case "grpo":
			c.Train.Credit.ScaleTo = credit.ScaleToGRPO
		case "raw":
			c.Train.Credit.ScaleTo = ""
		default:
			return fmt.Errorf("want grpo or raw, got %q", s)
		}
		return nil
	})
	fs.key("scale-to", "credit.scale_to")
	fs.intVar(&c.Calibrate.Prompts, "calibrate-prompts", "", "training prompts (× --group responses) sampled after warm-up to measure where each reward starts (0: no calibration)")
	fs.Func("train-config", "JSON or YAML file of training settings (as in a run's config.json) applied before these flags", func(path string) error {
		return rl.LoadConfigFile(path, &c.Train)
	})
	fs.stringVar(&c.Warmup.Size, "warmup-size", "warmup.size", "warm-up model size: tiny, small or medium")
	fs.intVar(&c.Warmup.Steps, "warmup-steps", "warmup.steps", "warm-up optimizer steps")
	fs.intVar(&c.Warmup.Batch, "warmup-batch", "warmup.batch", "warm-up sequences per step")
	fs.floatVar(&c.Warmup.Peak, "warmup-lr", "warmup.lr", "warm-up peak learning rate")
	fs.intVar(&c.Warmup.Demos, "demos", "warmup.demos", "warm-up demonstrations")
	fs.floatVar(&c.Warmup.Demo.DefaultFlawRate, "flaw-rate", "warmup.demo.DefaultFlawRate", "share of demonstrations that break each reward")
	fs.floatVar(&c.Warmup.Demo.BlockRate, "block-rate", "warmup.demo.BlockRate", "share of demonstrations whose prompt carries information blocks")
}

// compare runs a comparison, then prints its table and writes its report.
// cmd and args are the command line, for what to run after an interruption.
func compare(ctx context.Context, fs *flags, cmd string, args []string, c rl.CompareConfig, stdout, stderr io.Writer) error {
	if c.Out == "" {
		return usageError{fmt.Errorf("--out is required")}
	}
	// An existing --out must be a comparison, which this one continues.
	if entries, err := os.ReadDir(c.Out); err == nil && len(entries) > 0 && !exists(filepath.Join(c.Out, "compare.json")) {
		return usageError{fmt.Errorf("--out %s holds files but is not a comparison (no compare.json): choose another folder", c.Out)}
	}
	var opts []rl.Option
	if c.Train.PRM != "" {
		inf, err := loadPRM(c.Train.PRM)
		if err != nil {
			return usageError{err}
		}
		opts = append(opts, rl.WithPRM(inf))
	}
	if err := rl.Compare(ctx, c, stderr, opts...); err != nil {
		if ctx.Err() != nil {
			return compareInterrupted(c, cmd, args, err)
		}
		return fs.explain(err)
	}
	cmp, err := report.LoadCompare(c.Out)
	if err != nil {
		return err
	}
	path := filepath.Join(c.Out, "report.html")
	if err := report.Save(cmp, path); err != nil {
		return err
	}
	table := report.Markdown(report.Table(cmp))
	if err := writeText(filepath.Join(c.Out, "table.md"), table); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\n%s\nreport: %s\n", report.Text(report.Table(cmp)), path)
	return nil
}

// compareInterrupted says what an interrupted comparison kept and how to
// continue it: the same command again.
func compareInterrupted(c rl.CompareConfig, cmd string, args []string, err error) error {
	again := "credo " + cmd
	if len(args) > 0 {
		again += " " + shellQuote(args)
	}
	var ie *rl.InterruptedError
	switch {
	case errors.As(err, &ie) && ie.Checkpoint != "":
		return interrupted{fmt.Sprintf("\ninterrupted: the run in %s stopped after step %d (checkpoint %s); finished runs are kept.\n"+
			"run the same command again to continue where it stopped: %s", ie.Dir, ie.Step, ie.Checkpoint, again)}
	case c.Init == "" && !exists(filepath.Join(c.Out, "warmup", "warmup.json")):
		return interrupted{fmt.Sprintf("\ninterrupted during the warm-up, which keeps no checkpoint: the same command starts it over: %s", again)}
	default:
		return interrupted{fmt.Sprintf("\ninterrupted before the current run finished a step; finished runs are kept.\n"+
			"run the same command again to continue: %s", again)}
	}
}
