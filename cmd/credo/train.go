package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/prm"
	"github.com/credo-rl/credo/rl"
)

func runTrain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := rl.DefaultConfig()
	fs := newFlagSet("train", "Trains a warmed-up policy with RL against the task's rewards, giving each reward's\n"+
		"credit to tokens with the chosen method. Writes config.json, metrics.jsonl, samples.jsonl\n"+
		"and checkpoints/ into --out. Flags override a --config file; --resume continues a run.", stderr)
	configFile := fs.String("config", "", "JSON or YAML file with any of the settings below (keys as in config.json)")
	resume := fs.Bool("resume", false, "continue the run in --out from its latest checkpoint")
	trainFlags(fs, &c)
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := applyConfigFile(fs, *configFile, &c); err != nil {
		return usageError{err}
	}
	var opts []rl.Option
	if c.PRM != "" {
		inf, err := loadPRM(c.PRM)
		if err != nil {
			return err
		}
		opts = append(opts, rl.WithPRM(inf))
	}
	tr, err := rl.New(ctx, c, *resume, stderr, opts...)
	if err != nil {
		return err
	}
	if tr.Done() {
		fmt.Fprintf(stdout, "%s has finished all %d steps\n", c.Out, c.Steps)
		return nil
	}
	if err := tr.Run(ctx); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "trained %s for %d steps with %s: %s\n", c.Task, c.Steps, c.Method, c.Out)
	return nil
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

// applyConfigFile loads a config file under the flags: the file's values
// replace the defaults, and flags given on the command line win.
func applyConfigFile(fs *flag.FlagSet, path string, c *rl.Config) error {
	if path == "" {
		return nil
	}
	set := map[string]string{}
	fs.Visit(func(f *flag.Flag) {
		if f.Name != "config" {
			set[f.Name] = f.Value.String()
		}
	})
	file := rl.DefaultConfig()
	if err := rl.LoadConfigFile(path, &file); err != nil {
		return err
	}
	judges := c.Judges
	*c = file
	for name, v := range set {
		if name == "judge" { // repeated: keep the command line's list
			c.Judges = judges
			continue
		}
		if err := fs.Set(name, v); err != nil {
			return fmt.Errorf("--%s: %w", name, err)
		}
	}
	return nil
}

// trainFlags binds every training setting to a flag; defaults are shown
// by --help.
func trainFlags(fs *flag.FlagSet, c *rl.Config) {
	fs.StringVar(&c.Task, "task", c.Task, "task to train on (toolcall, sql, ifeval, arith)")
	fs.Uint64Var(&c.TaskSeed, "task-seed", c.TaskSeed, "seed of the task's prompt generator and data")
	fs.StringVar(&c.Method, "method", c.Method, "credit method: "+strings.Join(credit.Names(), ", ")+", or saw+<method>")
	fs.StringVar(&c.Init, "init", c.Init, "warmed-up policy folder to start from (made by credo sft) (required)")
	fs.StringVar(&c.Out, "out", c.Out, "run directory (required)")
	fs.StringVar(&c.PRM, "prm", c.PRM, "process reward model folder, for methods that need one (p2t)")
	fs.Var(&listFlag{&c.Judges}, "judge", "add an LLM judge reward: name=…,url=…,model=…[,rubric=FILE,weight=…,key_env=VAR] (repeatable)")
	fs.Var(&weightsFlag{&c.Weights}, "reward-weight", "reward weight c[k] as name=w (repeatable; default 1)")
	fs.IntVar(&c.Steps, "steps", c.Steps, "training steps")
	fs.IntVar(&c.PromptsPerStep, "prompts", c.PromptsPerStep, "prompts per step")
	fs.IntVar(&c.Group, "group", c.Group, "responses per prompt (G); at least 2")
	fs.IntVar(&c.MaxTokens, "max-tokens", c.MaxTokens, "new tokens per response")
	fs.Float64Var(&c.Temperature, "temperature", c.Temperature, "sampling temperature")
	fs.Float64Var(&c.TopP, "top-p", c.TopP, "nucleus sampling mass")
	fs.Float64Var(&c.Peak, "lr", c.Peak, "learning rate")
	fs.IntVar(&c.WarmupSteps, "lr-warmup", c.WarmupSteps, "learning-rate warm-up steps")
	fs.Float64Var(&c.MinRatio, "lr-min-ratio", c.MinRatio, "final learning rate as a share of --lr (1 keeps it constant)")
	fs.Float64Var(&c.Optimizer.Beta1, "beta1", c.Optimizer.Beta1, "AdamW β1")
	fs.Float64Var(&c.Optimizer.Beta2, "beta2", c.Optimizer.Beta2, "AdamW β2")
	fs.Float64Var(&c.Optimizer.WeightDecay, "weight-decay", c.Optimizer.WeightDecay, "AdamW decoupled weight decay (matrices only)")
	fs.Float64Var(&c.Optimizer.ClipNorm, "clip-norm", c.Optimizer.ClipNorm, "global gradient-norm clip (0 disables)")
	fs.Float64Var(&c.ClipLow, "clip-low", c.ClipLow, "surrogate clip ε_low")
	fs.Float64Var(&c.ClipHigh, "clip-high", c.ClipHigh, "surrogate clip ε_high")
	fs.Float64Var(&c.KLBeta, "kl-beta", c.KLBeta, "weight of the k3 KL to the initial policy (0: none)")
	fs.StringVar(&c.LossAgg, "loss-agg", c.LossAgg, "loss aggregation: token-mean, seq-mean-token-mean or seq-mean-token-sum-norm")
	fs.IntVar(&c.Updates, "updates", c.Updates, "updates per batch (μ) against its old log-probs")
	fs.Float64Var(&c.Credit.Eps, "eps", c.Credit.Eps, "ε in every normalization")
	fs.Func("scale", "GRPO scale: group, batch or none (default group)", func(s string) error { c.Credit.Scale = credit.ScaleMode(s); return nil })
	fs.Float64Var(&c.Credit.Beta, "beta", c.Credit.Beta, "placement β: share of a reward's advantage moved by relevance")
	fs.IntVar(&c.Credit.WarmupSteps, "beta-warmup", c.Credit.WarmupSteps, "steps over which β rises linearly from 0")
	fs.Float64Var(&c.Credit.Kappa, "kappa", c.Credit.Kappa, "cap κ on a token's weight")
	fs.Float64Var(&c.Credit.Gamma, "gamma", c.Credit.Gamma, "span: discount of credit to tokens before a span")
	fs.BoolVar(&c.Credit.Shuffle, "shuffle", c.Credit.Shuffle, "ablation: permute each response's weights across its tokens")
	fs.BoolVar(&c.Credit.Joint, "joint", c.Credit.Joint, "replay ablation: one replay without all blocks, shared by every reward")
	fs.BoolVar(&c.Credit.Placebo, "placebo", c.Credit.Placebo, "replay extension: subtract the JS a neutral placebo block causes from each token's replay JS")
	fs.Func("null", "gradient: null embedding pad, mean, zero or eos (default pad)", func(s string) error { c.Credit.Null = credit.NullEmbedding(s); return nil })
	fs.Func("norm", "gradient: influence normalization magnitude or softmax (default magnitude)", func(s string) error { c.Credit.Norm = credit.NormMode(s); return nil })
	fs.Float64Var(&c.Credit.Eta, "eta", c.Credit.Eta, "gradient: η, share of a step's reward placed by influence")
	fs.Float64Var(&c.Credit.Alpha, "alpha", c.Credit.Alpha, "gradient: α, weight of token rewards added to the outcome advantage")
	fs.BoolVar(&c.Credit.Signed, "signed", c.Credit.Signed, "gradient: use 2R−1 instead of the step probability R")
	fs.IntVar(&c.EvalEvery, "eval-every", c.EvalEvery, "steps between test-split evaluations (0: only at the end)")
	fs.IntVar(&c.EvalPrompts, "eval-prompts", c.EvalPrompts, "test prompts per evaluation (0: none)")
	fs.IntVar(&c.EvalSamples, "eval-samples", c.EvalSamples, "sampled responses per test prompt besides the greedy one")
	fs.IntVar(&c.CheckpointEvery, "checkpoint-every", c.CheckpointEvery, "steps between checkpoints (and one at the end)")
	fs.IntVar(&c.KeepCheckpoints, "keep-checkpoints", c.KeepCheckpoints, "checkpoints kept")
	fs.IntVar(&c.SamplesPerStep, "samples-per-step", c.SamplesPerStep, "rollouts per step logged to samples.jsonl")
	fs.IntVar(&c.BlockEvery, "block-every", c.BlockEvery, "steps between block diagnostics (blocks/… metrics) of a replay method; 0 never")
	fs.IntVar(&c.VerifyWorkers, "verify-workers", c.VerifyWorkers, "verifiers run at once")
	fs.Var(&c.VerifyTimeout, "verify-timeout", "time limit per verdict (a verifier past it scores 0)")
	fs.Uint64Var(&c.Seed, "seed", c.Seed, "seed of sampling and every other random choice")
}

// listFlag collects a repeatable string flag.
type listFlag struct{ v *[]string }

func (l *listFlag) String() string {
	if l.v == nil {
		return ""
	}
	return strings.Join(*l.v, " ")
}
func (l *listFlag) Set(s string) error { *l.v = append(*l.v, s); return nil }

// weightsFlag collects name=weight pairs.
type weightsFlag struct{ m *map[string]float64 }

func (w *weightsFlag) String() string {
	if w.m == nil || *w.m == nil {
		return ""
	}
	var parts []string
	for k, v := range *w.m {
		parts = append(parts, fmt.Sprintf("%s=%g", k, v))
	}
	return strings.Join(parts, ",")
}

func (w *weightsFlag) Set(s string) error {
	name, val, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return fmt.Errorf("want name=weight, got %q", s)
	}
	x, err := strconv.ParseFloat(val, 64)
	if err != nil {
		return fmt.Errorf("weight of %s: %w", name, err)
	}
	if *w.m == nil {
		*w.m = map[string]float64{}
	}
	(*w.m)[name] = x
	return nil
}
