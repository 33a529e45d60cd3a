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
		return usageError{fmt.Errorf("missing subcommand (train or eval)")}
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
		return usageError{fmt.Errorf("unknown subcommand %q (want train or eval)", args[0])}
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
		"empty unless --replace is given; nothing is written until training has finished.", stdout)
	out := fs.String("out", "", "PRM folder to write (required)")
	replace := fs.Bool("replace", false, "overwrite --out if it already holds something (the old folder stays until the new one is complete)")
	fs.StringVar(&c.Task, "task", c.Task, "task whose step labels to learn (it must label steps; synthetic solutions need one that corrupts them, as arith does)")
	fs.Uint64Var(&c.TaskSeed, "task-seed", c.TaskSeed, "seed of the task's prompt generator")
	fs.StringVar(&c.Size, "size", c.Size, "fresh model size: tiny, small (~1M parameters) or medium (~10M)")
	fs.StringVar(&c.Init, "init", c.Init, "start from this language-model checkpoint (a warmed-up policy): its tokenizer, embeddings and layers; a fresh scoring head")
	fs.IntVar(&c.Examples, "examples", c.Examples, "synthetic training solutions: clean and each of the task's corruptions in equal shares")
	fs.IntVar(&c.HeldOut, "held-out", c.HeldOut, "test prompts whose corrupted solutions form the held-out set")
	fs.StringVar(&c.Policy.Dir, "policy", c.Policy.Dir, "warmed-up policy folder whose samples are added, labelled by the task (empty: none)")
	fs.IntVar(&c.Policy.Prompts, "policy-prompts", c.Policy.Prompts, "training prompts the policy answers")
	fs.IntVar(&c.Policy.HeldOut, "policy-held-out", c.Policy.HeldOut, "test prompts the policy answers for the held-out set")
	fs.IntVar(&c.Policy.Group, "policy-group", c.Policy.Group, "policy samples per prompt")
	fs.floatVar(&c.Policy.Sample.Temperature, "policy-temperature", "", "policy sampling temperature")
	fs.IntVar(&c.Policy.Sample.MaxTokens, "policy-max-tokens", c.Policy.Sample.MaxTokens, "new tokens per policy sample")
	fs.IntVar(&c.Steps, "steps", c.Steps, "optimizer steps")
	fs.IntVar(&c.Batch, "batch", c.Batch, "responses per step")
	fs.floatVar(&c.LR, "lr", "", "peak learning rate (linear warm-up, then cosine decay)")
	fs.IntVar(&c.LRWarmup, "lr-warmup", c.LRWarmup, "learning-rate warm-up steps")
	fs.floatVar(&c.LRMinRatio, "lr-min-ratio", "", "final learning rate as a share of the peak")
	fs.floatVar(&c.Optimizer.WeightDecay, "weight-decay", "", "AdamW decoupled weight decay (matrices only)")
	fs.floatVar(&c.Optimizer.ClipNorm, "clip-norm", "", "global gradient-norm clip (0 disables)")
	fs.Uint64Var(&c.Seed, "seed", c.Seed, "seed of weights, data, policy samples and batch order")
	fs.IntVar(&c.Agreement, "agreement", c.Agreement, "held-out responses on which gradient influence is checked against exact attribution (0 skips)")
	fs.IntVar(&c.EvalEvery, "eval-every", c.EvalEvery, "log held-out metrics every this many steps (0: only at the end)")
	if err := fs.parse(args); err != nil {
		return err
	}
	if *out == "" {
		return usageError{fmt.Errorf("--out is required")}
	}
	if err := checkOut(*out, "out", *replace); err != nil {
		return err
	}
	if err := checkPRMTrain(c); err != nil {
		return err
	}
	_, rep, err := prm.Train(ctx, c, *out, stderr)
	if err != nil {
		if ctx.Err() != nil {
			return interrupted{fmt.Sprintf("\ninterrupted: PRM training keeps no checkpoint, so nothing was written to %s.\nrun the same command again to start it over: credo prm train %s", *out, shellQuote(args))}
		}
		return err
	}
	fmt.Fprintf(stdout, "wrote %s (final loss %.3f, %d responses with %d labelled steps, %.0fs)\n",
		*out, rep.FinalLoss, rep.Sequences, rep.Steps, rep.Seconds)
	printPRMReport(stdout, rep.HeldOut, rep.Agreement)
	return nil
}

func runPRMEval(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("prm eval", "Scores a PRM folder on held-out responses: synthetic corrupted solutions of test\n"+
		"prompts and, with --policy, a policy's samples, labelled exactly by the task. Reports\n"+
		"step-label accuracy and ROC AUC, and the within-step Spearman correlation of the\n"+
		"one-pass gradient influence with the exact (re-scoring) attribution.", stdout)
	dir := fs.String("prm", "", "PRM folder (required)")
	taskName := fs.String("task", "", "task of the held-out prompts (default: the PRM's own)")
	taskSeed := fs.Uint64("task-seed", 0, "seed of the task's prompt generator")
	heldOut := fs.Int("held-out", 400, "test prompts whose corrupted solutions are scored")
	pc := prm.DefaultTrain().Policy
	fs.StringVar(&pc.Dir, "policy", "", "policy folder whose samples of test prompts are also scored (empty: none)")
	fs.IntVar(&pc.HeldOut, "policy-prompts", pc.HeldOut, "test prompts the policy answers")
	fs.IntVar(&pc.Group, "policy-group", pc.Group, "policy samples per prompt")
	fs.IntVar(&pc.Sample.MaxTokens, "policy-max-tokens", pc.Sample.MaxTokens, "new tokens per policy sample")
	agreement := fs.Int("agreement", 16, "responses on which gradient influence is checked against exact attribution (0 skips)")
	null := fs.String("null", string(credit.NullPad), "null embedding of the influence: pad, mean, zero or eos")
	seed := fs.Uint64("seed", 1, "seed of the corruptions and policy samples")
	if err := fs.parse(args); err != nil {
		return err
	}
	if *dir == "" {
		return usageError{fmt.Errorf("--prm is required")}
	}
	p, err := prm.Load(*dir)
	if err != nil {
		return usageError{fmt.Errorf("--prm: %w", err)}
	}
	if *taskName == "" {
		*taskName = p.Info.Task
	}
	t, err := task.New(*taskName, task.Config{Seed: *taskSeed})
	if err != nil {
		return err
	}
	held, err := prm.Synthetic(t, task.Test, *heldOut, *seed)
	if err != nil {
		return err
	}
	if pc.Dir != "" {
		pol, err := policy.Load(pc.Dir)
		if err != nil {
			return err
		}
		sc := pc.Sample
		sc.Seed = *seed
		more, err := prm.PolicySamples(ctx, pol, t, task.Test, pc.HeldOut, pc.Group, sc)
		if err != nil {
			return err
		}
		held = append(held, more...)
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
		return usageError{errors.New(strings.Join(bad, "\n"))}
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
