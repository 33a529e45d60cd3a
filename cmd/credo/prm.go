package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/credo-rl/credo/cmd/credo/internal/cli"
	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/prm"
	"github.com/credo-rl/credo/task"
)

// prmSubcommands are `credo prm`'s subcommands.
var prmSubcommands = []struct{ name, summary string }{
	{"train", "train a process reward model on a task's exact step labels"},
	{"eval", "report a process reward model's held-out step accuracy, ROC AUC and influence agreement"},
}

// runPRM is `credo prm train|eval [flags]`.
func runPRM(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	usage := func(w io.Writer) {
		fmt.Fprintln(w, "Usage: credo prm <train|eval> [flags]   (credo prm <subcommand> --help lists its flags)")
		fmt.Fprintln(w, "\nSubcommands:")
		for _, s := range prmSubcommands {
			fmt.Fprintf(w, "  %-6s %s\n", s.name, s.summary)
		}
	}
	if len(args) == 0 {
		return usageError{Err: fmt.Errorf("missing subcommand (train or eval)")}
	}
	var err error
	switch args[0] {
	case "train":
		err = runPRMTrain(ctx, args[1:], stdout, stderr)
	case "eval":
		err = runPRMEval(ctx, args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		usage(stdout)
		return flag.ErrHelp
	default:
		return usageError{Err: fmt.Errorf("unknown subcommand %q (want train or eval)", args[0])}
	}
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		return subcommandError{"prm " + args[0], err}
	}
	return err
}

func runPRMTrain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := prm.DefaultTrain()
	fs := newFlags("prm train", "Trains a process reward model (a scoring transformer read at each step's last byte)\n"+
		"with binary cross-entropy on exact step labels: the task's solutions, corrupted ones\n"+
		"(arith: wrong result, wrong operand, skipped step) and, with --policy, a warmed-up policy's\n"+
		"samples. Reports step-label accuracy and ROC AUC on held-out test prompts, and writes\n"+
		"a PRM folder that `credo train --method p2t --prm DIR` loads. --out must be new or\n"+
		"empty unless --replace is given; nothing is written until training has finished.", stdout, stderr)
	out := fs.String("out", "", "PRM folder to write (required)")
	replace := fs.Bool("replace", false, "overwrite --out if it already holds something (the old folder stays until the new one is complete)")
	prmTrainFlags(fs, &c)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" {
		return usageError{Err: fmt.Errorf("--out is required")}
	}
	if err := checkOut(*out, "out", *replace); err != nil {
		return err
	}
	if err := checkPRMTrain(c); err != nil {
		return err
	}
	lk, err := holdOut(*out) // one process writes a PRM folder (--replace included)
	if err != nil {
		return err
	}
	defer lk.Release()
	_, rep, err := prm.Train(ctx, c, *out, stderr)
	if err != nil {
		if ctx.Err() != nil {
			return interrupted{fmt.Sprintf("\ninterrupted: PRM training keeps no checkpoint, so nothing was written to %s.\nrun the same command again to start it over:", *out), append([]string{"prm", "train"}, args...)}
		}
		return err
	}
	fmt.Fprintf(stdout, "wrote %s (final loss %.3f, %d responses with %d labelled steps, %.0fs)\n",
		*out, rep.FinalLoss, rep.Sequences, rep.Steps, rep.Seconds)
	printPRMReport(stdout, rep.HeldOut, rep.Agreement)
	return nil
}

func runPRMEval(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	const synopsis = "Scores a PRM folder on held-out responses: synthetic corrupted solutions of test\n" +
		"prompts and, with --policy, a policy's samples, labelled exactly by the task. Reports\n" +
		"step-label accuracy and ROC AUC, and the within-step Spearman correlation of the\n" +
		"one-pass gradient influence with the exact (re-scoring) attribution. The held-out\n" +
		"set is the one the PRM's training reported (its train.json settings, prm.HeldOut);\n" +
		"the flags change it. The defaults below are those of a PRM without train.json."
	c := prm.DefaultTrain()
	fs := newFlags("prm eval", synopsis, stdout, stderr)
	dir, agreement, null := prmEvalFlags(fs, &c)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dir == "" {
		return usageError{Err: fmt.Errorf("--prm is required")}
	}
	p, err := prm.Load(*dir)
	if err != nil {
		return usageError{Err: fmt.Errorf("--prm: %w", err)}
	}
	// The PRM's training settings, or without them its task, under the flags.
	base, ok, err := prm.LoadTrainConfig(*dir)
	if err != nil {
		return err
	}
	if !ok && p.Info.Task != "" {
		base.Task = p.Info.Task
	}
	c = base
	again := newFlags("prm eval", "", io.Discard, io.Discard) // notices were printed by the first parse
	prmEvalFlags(again, &c)
	if err := again.Parse(args); err != nil {
		return err
	}
	t, err := task.New(c.Task, task.Config{Seed: c.TaskSeed})
	if err != nil {
		return usageError{Err: fmt.Errorf("--task: %w", err)}
	}
	if cl, ok := t.(io.Closer); ok {
		defer cl.Close()
	}
	var pol prm.Generator
	if c.Policy.Dir != "" {
		pp, err := policy.Load(c.Policy.Dir)
		if err != nil {
			return usageError{Err: fmt.Errorf("--policy: %w", err)}
		}
		pol = pp
	}
	held, err := prm.HeldOut(ctx, c, t, pol)
	if err != nil {
		return err
	}
	rep, err := p.Evaluate(ctx, held)
	if err != nil {
		return err
	}
	var agree *prm.AgreementReport
	if *agreement > 0 && len(held) > 0 {
		a, err := p.Agreement(ctx, prm.Requests(held[:min(*agreement, len(held))]), credit.NullEmbedding(*null))
		if err != nil {
			return err
		}
		agree = &a
	}
	printPRMReport(stdout, rep, agree)
	return nil
}

// prmTrainFlags binds every PRM training setting to its flag
// (prmTrainSettings).
func prmTrainFlags(fs *cli.Flags, c *prm.TrainConfig) {
	fs.Bind(c, "", prmTrainSettings()...)
	fs.Deprecate(adamAliases)
	backendFlag(fs)
}

// prmEvalFlags binds the settings of the held-out set (prmTrainSettings'
// own rows) and eval's own flags.
func prmEvalFlags(fs *cli.Flags, c *prm.TrainConfig) (dir *string, agreement *int, null *string) {
	dir = fs.String("prm", "", "PRM folder (required)")
	agreement = fs.Int("agreement", 16, "responses on which gradient influence is checked against exact attribution (0 skips)")
	null = fs.String("null", string(credit.NullPad), "null embedding of the influence: pad, mean, zero or eos")
	backendFlag(fs)
	fs.Bind(c, "",
		cli.Setting{Key: "task", Flag: "task", Usage: "task of the held-out prompts"},
		cli.Setting{Key: "task_seed", Flag: "task-seed", Usage: "seed of the task's prompt generator"},
		cli.Setting{Key: "held_out", Flag: "held-out", Usage: "test prompts whose corrupted solutions are scored"},
		cli.Setting{Key: "seed", Flag: "seed", Usage: "seed of the corruptions and policy samples"},
		cli.Setting{Key: "policy.dir", Flag: "policy", Usage: "policy folder whose samples of test prompts are also scored (empty: none)"},
		cli.Setting{Key: "policy.held_out", Flag: "policy-held-out", Usage: "test prompts the policy answers"},
	)
	fs.Bind(c, "", cli.Pick(prmTrainSettings(), nil, "policy.group", "policy.sample.temperature", "policy.sample.top_p", "policy.sample.max_tokens")...)
	fs.Deprecate(map[string]string{"policy-prompts": "policy-held-out"}) // eval's former name for the policy's held-out prompts
	return dir, agreement, null
}

// checkPRMTrain checks the settings flags give before any work, so a bad
// one is a usage error naming its flag.
func checkPRMTrain(c prm.TrainConfig) error {
	var bad []string
	if c.Steps < 1 || c.Batch < 1 {
		bad = append(bad, "--steps and --batch must be at least 1")
	}
	if c.Examples < 0 || c.HeldOut < 0 {
		bad = append(bad, "--examples and --held-out must be ≥ 0")
	}
	if !(c.LR > 0) {
		bad = append(bad, fmt.Sprintf("--lr must be positive, got %v", c.LR))
	}
	if c.LRWarmup < 0 || !(c.LRMinRatio >= 0 && c.LRMinRatio <= 1) {
		bad = append(bad, "--lr-warmup must be ≥ 0 and --lr-min-ratio in [0, 1]")
	}
	if c.Optimizer.WeightDecay < 0 || c.LR*c.Optimizer.WeightDecay >= 1 || c.Optimizer.ClipNorm < 0 {
		bad = append(bad, "--weight-decay must be ≥ 0 with --lr × --weight-decay below 1, and --clip-norm ≥ 0")
	}
	if t, err := task.New(c.Task, task.Config{Seed: c.TaskSeed}); err != nil {
		bad = append(bad, "--task: "+err.Error())
	} else if cl, ok := t.(io.Closer); ok {
		cl.Close()
	}
	if len(bad) > 0 {
		return usageError{Err: errors.New(strings.Join(bad, "\n"))}
	}
	return nil
}

// printPRMReport prints held-out metrics, by kind, and the agreement.
func printPRMReport(w io.Writer, rep prm.EvalReport, agree *prm.AgreementReport) {
	fmt.Fprintf(w, "held-out: %s\n", rep.All)
	for _, k := range slices.Sorted(maps.Keys(rep.ByKind)) {
		fmt.Fprintf(w, "  %-14s %s\n", k+":", rep.ByKind[k])
	}
	if rep.Skipped > 0 {
		fmt.Fprintf(w, "  (%d responses longer than the PRM's context were skipped)\n", rep.Skipped)
	}
	if agree != nil {
		fmt.Fprintf(w, "influence vs exact attribution: within-step Spearman %.3f (|I|: %.3f) over %d steps, relative L1 error %.3f\n",
			agree.Spearman, agree.SpearmanAbs, agree.Steps, agree.RelError)
	}
}
