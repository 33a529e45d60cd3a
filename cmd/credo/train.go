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
	"github.com/credo-rl/credo/prm"
	"github.com/credo-rl/credo/rl"
)

func runTrain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := rl.DefaultConfig()
	fs := newFlags("train", "Trains a warmed-up policy with RL against the task's rewards, giving each reward's\n"+
		"credit to tokens with the chosen method. Writes config.json, metrics.jsonl, samples.jsonl\n"+
		"and checkpoints/ into --out, which must be new or empty. Flags override a --config file.\n"+
		"--resume continues the run in --out with the settings it was started with; only these\n"+
		"may change, and resumes.json records the change:\n  "+strings.Join(resumeFlags(), ", ")+".", stdout)
	configFile := fs.String("config", "", "JSON or YAML file with any of the settings below (keys as in config.json)")
	resume := fs.Bool("resume", false, "continue the run in --out from its latest checkpoint, with its saved settings")
	trainFlags(fs, &c)
	if err := fs.parse(args); err != nil {
		return err
	}
	if err := applyBase(fs, *configFile, *resume, &c); err != nil {
		return fs.explain(err)
	}
	var opts []rl.Option
	if c.PRM != "" {
		inf, err := loadPRM(c.PRM)
		if err != nil {
			return usageError{err}
		}
		opts = append(opts, rl.WithPRM(inf))
	}
	tr, err := rl.New(ctx, c, *resume, stderr, opts...)
	if err != nil {
		return fs.explain(err)
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
		return interrupted{fmt.Sprintf("\ninterrupted before the first step finished: nothing to keep.\ncontinue with: credo train --resume --out %s", shellQuote([]string{c.Out}))}
	case errors.As(err, &ie):
		return interrupted{fmt.Sprintf("\ninterrupted after step %d of %d: checkpoint written to %s.\ncontinue with: credo train --resume --out %s", ie.Step, c.Steps, ie.Checkpoint, shellQuote([]string{c.Out}))}
	case err != nil:
		return err
	}
	fmt.Fprintf(stdout, "trained %s for %d steps with %s: %s\n", c.Task, c.Steps, c.Method, c.Out)
	return nil
}

// resumeFlags are the flags of the settings a resume may change.
func resumeFlags() []string {
	fs := newFlags("train", "", io.Discard)
	c := rl.DefaultConfig()
	trainFlags(fs, &c)
	var out []string
	for _, k := range rl.ResumeMayChange() {
		out = append(out, fs.name(k))
	}
	return out
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

// applyBase puts the flags given on the command line over a base: the
// defaults, or with resume the run's saved settings; a --config file sits
// between the two.
func applyBase(fs *flags, path string, resume bool, c *rl.Config) error {
	if path == "" && !resume {
		return nil
	}
	set := map[string]string{}
	fs.Visit(func(f *flag.Flag) {
		if f.Name != "config" && f.Name != "resume" {
			set[f.Name] = f.Value.String()
		}
	})
	base := rl.DefaultConfig()
	if resume {
		out := c.Out
		if out == "" && path != "" { // --out from the config file
			file := rl.DefaultConfig()
			if err := rl.LoadConfigFile(path, &file); err != nil {
				return usageError{fmt.Errorf("--config: %w", err)}
			}
			out = file.Out
		}
		if out == "" {
			return usageError{errors.New("--resume needs --out, the run directory to continue")}
		}
		saved, err := rl.LoadRunConfig(out)
		if err != nil {
			return err
		}
		base = saved
	}
	if path != "" {
		if err := rl.LoadConfigFile(path, &base); err != nil {
			return usageError{fmt.Errorf("--config: %w", err)}
		}
	}
	judges := c.Judges
	*c = base
	for name, v := range set {
		if name == "judge" { // repeated: keep the command line's list
			c.Judges = judges
			continue
		}
		if err := fs.Set(name, v); err != nil {
			return usageError{fmt.Errorf("--%s: %w", name, err)}
		}
	}
	return nil
}

// trainFlags binds every training setting to a flag and its config.json
// key; defaults are shown by --help.
func trainFlags(fs *flags, c *rl.Config) {
	fs.stringVar(&c.Task, "task", "task", "task to train on (toolcall, sql, ifeval, arith)")
	fs.Uint64Var(&c.TaskSeed, "task-seed", c.TaskSeed, "seed of the task's prompt generator and data")
	fs.stringVar(&c.Difficulty, "difficulty", "difficulty", "the task's difficulty settings, key=value,… (each task's keys: see README)")
	fs.key("task-seed", "task_seed")
	fs.stringVar(&c.Method, "method", "method", "credit method: "+strings.Join(credit.Names(), ", ")+", or saw+<method>")
	fs.stringVar(&c.Init, "init", "init", "warmed-up policy folder to start from (made by credo sft) (required)")
	fs.stringVar(&c.Out, "out", "out", "run directory (required)")
	fs.stringVar(&c.PRM, "prm", "prm", "process reward model folder, for methods that need one (p2t)")
	fs.Var(&listFlag{&c.Judges}, "judge", "add an LLM judge reward: name=…,url=…,model=…[,rubric=FILE,weight=…,key_env=VAR] (repeatable)")
	fs.key("judge", "judges")
	fs.Var(&weightsFlag{&c.Weights}, "reward-weight", "reward weight c[k] as name=w (repeatable; default 1)")
	fs.key("reward-weight", "reward_weights")
	fs.intVar(&c.Steps, "steps", "steps", "training steps")
	fs.intVar(&c.PromptsPerStep, "prompts", "prompts_per_step", "prompts per step")
	fs.intVar(&c.Group, "group", "group", "responses per prompt (G); at least 2")
	fs.intVar(&c.DynamicSampling, "dynamic-sampling", "dynamic_sampling", "keep only groups in which some reward varies, sampling up to this many rounds of fresh prompts per step to fill the batch (DAPO); 0: off")
	fs.intVar(&c.MaxTokens, "max-tokens", "max_tokens", "new tokens per response")
	fs.floatVar(&c.Temperature, "temperature", "temperature", "sampling temperature")
	fs.floatVar(&c.TopP, "top-p", "top_p", "nucleus sampling mass")
	fs.floatVar(&c.Peak, "lr", "lr", "learning rate")
	fs.intVar(&c.WarmupSteps, "lr-warmup", "lr_warmup_steps", "learning-rate warm-up steps")
	fs.floatVar(&c.MinRatio, "lr-min-ratio", "lr_min_ratio", "final learning rate as a share of --lr (1 keeps it constant)")
	fs.floatVar(&c.Optimizer.Beta1, "beta1", "optimizer.beta1", "AdamW β1")
	fs.floatVar(&c.Optimizer.Beta2, "beta2", "optimizer.beta2", "AdamW β2")
	fs.floatVar(&c.Optimizer.WeightDecay, "weight-decay", "optimizer.weight_decay", "AdamW decoupled weight decay (matrices only); --lr × --weight-decay must be below 1")
	fs.floatVar(&c.Optimizer.ClipNorm, "clip-norm", "optimizer.clip_norm", "global gradient-norm clip (0 disables)")
	fs.floatVar(&c.ClipLow, "clip-low", "clip_low", "surrogate clip ε_low")
	fs.floatVar(&c.ClipHigh, "clip-high", "clip_high", "surrogate clip ε_high")
	fs.floatVar(&c.KLBeta, "kl-beta", "kl_beta", "weight of the k3 KL to the initial policy (0: none)")
	fs.stringVar(&c.LossAgg, "loss-agg", "loss_agg", "loss aggregation: token-mean, seq-mean-token-mean or seq-mean-token-sum-norm")
	fs.intVar(&c.Updates, "updates", "updates", "updates per batch (μ) against its old log-probs")
	fs.floatVar(&c.Credit.Eps, "eps", "credit.eps", "ε in every normalization")
	fs.Func("scale", "GRPO scale: group, batch or none (default group)", func(s string) error { c.Credit.Scale = credit.ScaleMode(s); return nil })
	fs.key("scale", "credit.scale")
	fs.floatVar(&c.Credit.Beta, "beta", "credit.beta", "placement β: share of a reward's advantage moved by relevance")
	fs.intVar(&c.Credit.SpanWarmup, "span-warmup", "credit.span_warmup_steps", "span: steps over which β rises linearly from 0 (0: exact spans place from the first step)")
	fs.intVar(&c.Credit.ReplayWarmup, "replay-warmup", "credit.replay_warmup_steps", "mrtpo: steps over which β rises linearly from 0 (a barely trained policy's replay is noise)")
	fs.floatVar(&c.Credit.Kappa, "kappa", "credit.kappa", "cap κ on a token's weight")
	fs.Var(modeFlag[credit.CapMode]{&c.Credit.Cap}, "cap", "what κ caps: sum (a token's reallocated advantage summed over rewards) or reward (each reward's weights)")
	fs.key("cap", "credit.cap")
	fs.Var(modeFlag[credit.JSForm]{&c.Credit.JS}, "js", "replay relevance: divergence (JS/ln 2) or distance (its square root)")
	fs.key("js", "credit.js")
	fs.floatVar(&c.Credit.Gamma, "gamma", "credit.gamma", "span: discount of credit to tokens before a span")
	fs.BoolVar(&c.Credit.Shuffle, "shuffle", c.Credit.Shuffle, "ablation: permute each response's weights across its tokens")
	fs.key("shuffle", "credit.shuffle")
	fs.BoolVar(&c.Credit.Joint, "joint", c.Credit.Joint, "replay ablation: one replay without all blocks, shared by every reward")
	fs.key("joint", "credit.joint")
	fs.Func("null", "gradient: null embedding pad, mean, zero or eos (default pad)", func(s string) error { c.Credit.Null = credit.NullEmbedding(s); return nil })
	fs.key("null", "credit.null")
	fs.Func("norm", "gradient: influence normalization magnitude or softmax (default magnitude)", func(s string) error { c.Credit.Norm = credit.NormMode(s); return nil })
	fs.key("norm", "credit.norm")
	fs.floatVar(&c.Credit.Eta, "eta", "credit.eta", "gradient: η, share of a step's reward placed by influence")
	fs.floatVar(&c.Credit.Alpha, "alpha", "credit.alpha", "gradient: α, weight of token rewards added to the outcome advantage")
	fs.Var(modeFlag[credit.StepReward]{&c.Credit.StepReward}, "step-reward", "gradient: step reward from the PRM probability R: signed (2R−1), centred (R minus the group's mean) or unsigned (R)")
	fs.key("step-reward", "credit.step_reward")
	fs.intVar(&c.EvalEvery, "eval-every", "eval_every", "steps between test-split evaluations (0: only at the end)")
	fs.intVar(&c.EvalPrompts, "eval-prompts", "eval_prompts", "test prompts per evaluation (0: none)")
	fs.intVar(&c.EvalSamples, "eval-samples", "eval_samples", "sampled responses per test prompt besides the greedy one")
	fs.intVar(&c.CheckpointEvery, "checkpoint-every", "checkpoint_every", "steps between checkpoints (and one at the end)")
	fs.intVar(&c.KeepCheckpoints, "keep-checkpoints", "keep_checkpoints", "checkpoints kept")
	fs.intVar(&c.SamplesPerStep, "samples-per-step", "samples_per_step", "rollouts per step logged to samples.jsonl")
	fs.intVar(&c.VerifyWorkers, "verify-workers", "verify_workers", "verifiers run at once")
	fs.Var(&c.VerifyTimeout, "verify-timeout", "time limit per verdict (a verifier past it scores 0)")
	fs.key("verify-timeout", "verify_timeout")
	fs.floatVar(&c.MaxVerifyErrors, "max-verify-errors", "max_verify_errors", "share of a reward's verdicts over the last 5 steps that may fail (scored 0) before the run stops")
	fs.Uint64Var(&c.Seed, "seed", c.Seed, "seed of sampling and every other random choice")
	fs.key("seed", "seed")
}
