package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/credo-rl/credo/lab"

	"github.com/credo-rl/credo/cmd/credo/internal/cli"
	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/model/hf"
	"github.com/credo-rl/credo/report"
	"github.com/credo-rl/credo/rl"
	"github.com/credo-rl/credo/run"
)

func runCompare(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, c, err := compareConfig("compare", "Warms a policy up once, trains every method with every seed from it on the same\n"+
		"prompts, then prints the comparison table and writes report.html into --out.\n"+
		"Runs are ordinary run directories under --out/runs: an interrupted comparison\n"+
		"continues when the same command is run again, and finished runs are not run again.", defaultCompare(), args, stdout, stderr)
	if err != nil {
		return err
	}
	return compare(ctx, fs, "compare", args, c, stdout, stderr)
}

// compareConfig parses a comparison's flags over base. A --train-config
// file is applied first, wherever it stands on the command line, so the
// flags override it.
func compareConfig(cmd, synopsis string, base lab.CompareConfig, args []string, stdout, stderr io.Writer) (*cli.Flags, lab.CompareConfig, error) {
	c := base
	fs := newFlags(cmd, synopsis, stdout, stderr)
	file := compareFlags(fs, &c)
	if err := fs.Parse(args); err != nil || *file == "" {
		return fs, sameRecords(c), err
	}
	c = base
	if err := loadTrainConfig(*file, &c.Train, stderr); err != nil {
		return fs, c, usageError{Err: fmt.Errorf("--train-config: %w", err)}
	}
	again := newFlags(cmd, "", io.Discard, io.Discard) // notices were printed by the first parse
	compareFlags(again, &c)
	err := again.Parse(args)
	return fs, sameRecords(c), err
}

// defaultCompare is `credo compare` without flags: the protocol of
// docs/ALGORITHMS.md §6 on tool calling. Five seeds, paired by seed (the
// fewest whose sign-flip p-value can come near 0.05: 2/2⁵ = 0.0625; with
// one warm-up the intervals cover RL-seed noise only); 8 prompts × 8 responses at lr 1.5e-4 (at this scale AdamW at
// 3e-4 or more destroys what the warm-up taught within 20 steps); a final
// greedy evaluation on 128 held-out prompts and none during training.
func defaultCompare() lab.CompareConfig {
	w := lab.DefaultWarmup()
	// A short warm-up (about 4 minutes): greedy decoding gets the format
	// right, sampling at temperature 1 only about two times in three, and
	// the calls are mostly wrong, so every reward has something left to learn.
	// 120 steps left sampled responses too broken for RL to start from.
	w.Steps, w.Peak, w.WarmupSteps = 160, 4e-3, 10
	t := rl.DefaultConfig()
	t.Steps, t.PromptsPerStep, t.Group, t.MaxTokens, t.Peak = 60, 8, 8, 128, 1.5e-4
	t.EvalEvery, t.EvalPrompts = 0, 128
	t.CheckpointEvery = 10
	// Every method at GRPO's step size (mean |A| over the batch's tokens),
	// so neither placement nor GDPO's batch normalization decides the race.
	t.Credit.ScaleTo = credit.ScaleToGRPO
	return lab.CompareConfig{
		Methods: []string{"grpo", "gdpo", "span", "mrtpo"}, Seeds: 5, Headline: run.HeadlineShared,
		Baselines: lab.DefaultBaselines(), Threshold: 0.8, Window: 5, Warmup: w, Train: t, Calibrate: lab.DefaultCalibrate(),
	}
}

// compareFlags binds the comparison's own settings, a subset of the
// training settings (trainSettings) and of the warm-up's (warmupSettings,
// under warmup.), and --task and --task-seed, which set both. It returns
// --train-config's value, which compareConfig applies.
func compareFlags(fs *cli.Flags, c *lab.CompareConfig) (trainConfig *string) {
	backendFlag(fs)
	fs.Bind(c, "",
		cli.Setting{Key: "out", Flag: "out", Usage: "comparison folder (required)"},
		cli.Setting{Key: "seeds", Flag: "seeds", Usage: "runs per method, with seeds 1..N"},
		cli.Setting{Key: "threshold", Flag: "threshold", Usage: "training reward whose moving mean counts as reached"},
		cli.Setting{Key: "window", Flag: "window", Usage: "moving-mean window in steps"},
		cli.Setting{Key: "init", Flag: "init", Usage: "reuse this warm-up checkpoint instead of making one"},
		cli.Setting{Key: "accept_missing_checksums", Flag: acceptMissingFlag, Usage: "continue a run whose checkpoint's checksums.json is gone, unverified (recorded in its resumes.json)"},
		cli.Setting{Key: "warmups", Flag: "warmups", Usage: "warm-ups to make (warm-up w with seed --warmup-seed + w − 1; another --warmup-seed makes fresh ones): every method trains with every seed from each, so an interval covers the warm-up's variance too (0 or 1: one warm-up)"},
		cli.Setting{Key: "headline", Flag: "headline", Usage: "which rewards each run's headline figure averages: shared (those every warm-up's calibration counts) or own (those its own warm-up's calibration counts, for warm-ups that count different rewards); fixed before the runs, in compare.json"},
	)
	fs.Func("task", "task for warm-up and training (default "+c.Train.Task+")", func(s string) error {
		c.Train.Task, c.Warmup.Task = s, s
		return nil
	})
	fs.Key("task", "task")
	fs.Key("task", "warmup.task")
	fs.Func("task-seed", "seed of the task's prompt generator and data (default 0)", func(s string) error {
		var v uint64
		_, err := fmt.Sscan(s, &v)
		c.Train.TaskSeed, c.Warmup.TaskSeed = v, v
		return err
	})
	fs.Key("task-seed", "task_seed")
	fs.Key("task-seed", "warmup.task_seed")
	fs.Func("difficulty", "the task's difficulty settings, key=value,… (each task's keys: see README)", func(s string) error {
		c.Train.Difficulty, c.Warmup.Difficulty = s, s
		return nil
	})
	fs.Key("difficulty", "difficulty")
	fs.Key("difficulty", "warmup.difficulty")
	fs.Func("methods", "comma-separated credit methods (default "+strings.Join(c.Methods, ",")+")", func(s string) error {
		c.Methods = strings.Split(s, ",")
		return nil
	})
	fs.Key("methods", "methods")
	fs.Func("baselines", "comma-separated methods every other one is measured against, in the table's order; the last is the final evaluation's reference (default "+strings.Join(c.Baselines, ",")+")", func(s string) error {
		c.Baselines = strings.Split(s, ",")
		return nil
	})
	fs.Key("baselines", "baselines")
	fs.Func("min-localization", "warm-up gate, method=value,…: measure each named method's localization (relevance on the verifiers' checked tokens relative to uniform) in every warm-up's calibration, and train only from warm-ups where it reaches the value on every counted reward, such as mrtpo=2 (a policy that does not read its verifier blocks leaves replay nothing to find); fixed before the runs, in compare.json", func(s string) error {
		g, err := run.ParseGate(s)
		c.Gate = g
		return err
	})
	fs.Key("min-localization", "min_localization")
	trainConfig = fs.String("train-config", "", "JSON or YAML file of training settings (as in a run's config.json) applied before these flags")
	fs.Bind(&c.Train, "", cli.Pick(trainSettings(), nil, "prm", "steps", "prompts_per_step", "group", "dynamic_sampling", "max_tokens", "lr",
		"credit.beta", "credit.span_warmup_steps", "credit.replay_warmup_steps", "credit.scale_to", "eval_every", "eval_prompts",
		"memory_budget", "micro_batch", "records", "format", "test_fraction", "strict_records", "verifiers")...)
	fs.Bind(&c.Warmup, "warmup.", cli.Described("warm-up: ", cli.Pick(warmupSettings(),
		map[string]string{"size": "warmup-size", "steps": "warmup-steps", "batch": "warmup-batch", "lr": "warmup-lr", "seed": "warmup-seed"},
		"size", "steps", "batch", "lr", "seed", "demos", "demo.DefaultFlawRate", "demo.FlawRate", "demo.BlockRate"))...)
	fs.Bind(&c.Calibrate, "calibrate.", cli.Setting{Key: "prompts", Flag: "calibrate-prompts", Usage: "training prompts (× --group responses) sampled after warm-up to measure where each reward starts (0: no calibration)"})
	fs.Deprecate(map[string]string{"beta": "place-beta"})
	return trainConfig
}

// compare runs a comparison, then prints its table and writes its report.
// cmd and args are the command line, for what to run after an interruption.
func compare(ctx context.Context, fs *cli.Flags, cmd string, args []string, c lab.CompareConfig, stdout, stderr io.Writer) error {
	if c.Out == "" {
		return usageError{Err: fmt.Errorf("--out is required")}
	}
	// An existing --out must be a comparison, which this one continues.
	if entries, err := os.ReadDir(c.Out); err == nil && slices.ContainsFunc(entries, notLock) && !exists(filepath.Join(c.Out, "compare.json")) {
		return usageError{Err: fmt.Errorf("--out %s holds files but is not a comparison (no compare.json): choose another folder", c.Out)}
	}
	if c.Train.PRM != "" {
		inf, err := loadPRM(c.Train.PRM)
		if err != nil {
			return usageError{Err: err}
		}
		c.PRM = inf
	}
	limitHeap(heapLimit(int64(c.Train.Memory.Budget), initParams(c.Init)))
	if err := lab.Compare(ctx, c, stderr); err != nil {
		if ctx.Err() != nil {
			return compareInterrupted(c, cmd, args, err)
		}
		return explain(fs, err)
	}
	cmp, err := report.LoadCompare(c.Out)
	if err != nil {
		return err
	}
	path := filepath.Join(c.Out, "report.html")
	if err := report.Save(cmp, path); err != nil {
		return err
	}
	rows := report.Table(cmp)
	head := ""
	for _, note := range []string{report.BlocksNote(cmp), report.GateNote(cmp), report.FocusNote(cmp)} {
		if note != "" {
			head += note + "\n\n"
		}
	}
	md := filepath.Join(c.Out, "table.md")
	if err := writeText(md, head+report.Markdown(rows)); err != nil {
		return err
	}
	// The terminal gets the narrow table (report.TextWidth columns); the
	// intervals' bounds, p-values, warm-up columns, ratios, retention and
	// length are in table.md and the report.
	fmt.Fprintf(stdout, "\n%s\nfull table: %s\nreport: %s\n", report.Text(rows), md, path)
	return nil
}

// compareInterrupted says what an interrupted comparison kept and how to
// continue it: the same command again.
func compareInterrupted(c lab.CompareConfig, cmd string, args []string, err error) error {
	again := append([]string{cmd}, args...)
	var ie *rl.InterruptedError
	switch {
	case errors.As(err, &ie) && ie.Checkpoint != "":
		return interrupted{fmt.Sprintf("\ninterrupted: the run in %s stopped after step %d (checkpoint %s); finished runs are kept.\n"+
			"run the same command again to continue where it stopped:", ie.Dir, ie.Step, ie.Checkpoint), again}
	case c.Init == "" && !exists(filepath.Join(c.Out, "warmup", "warmup.json")):
		return interrupted{"\ninterrupted during the warm-up, which keeps no checkpoint: the same command starts it over:", again}
	default:
		return interrupted{"\ninterrupted before the current run finished a step; finished runs are kept.\n" +
			"run the same command again to continue:", again}
	}
}

// initParams is the parameter count of the model folder --init names, or 0
// when it names none that hf.ReadConfig reads (a comparison that makes its
// own warm-up trains a built-in size, which its budget holds).
func initParams(dir string) int {
	if dir == "" {
		return 0
	}
	mc, err := hf.ReadConfig(dir)
	if err != nil {
		return 0
	}
	return mc.NumParams()
}
