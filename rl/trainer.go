package rl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/internal/progress"
	"github.com/credo-rl/credo/model"
	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/run"
	"github.com/credo-rl/credo/task"
)

// Trainer runs `credo train`: one Trainer is one run directory.
type Trainer struct {
	c       Config
	policy  *policy.Policy
	ref     *model.Model // the frozen initial policy, for the KL term; nil when KLBeta is 0
	task    task.Task
	rewards []reward.Verifier
	weights []float64
	method  credit.Method
	needs   credit.Requirements
	prm     credit.Influencer
	opt     *model.Trainer
	loss    Loss
	step    int // completed steps
	metrics *run.Log[run.Metrics]
	samples *run.Log[run.Sample]
	log     io.Writer

	// advantageHook lets tests corrupt advantages (a non-finite value must
	// skip the update).
	advantageHook func([][]float64)
}

// Option changes how New builds a Trainer.
type Option func(*Trainer)

// WithPRM gives methods that need a process reward model (p2t) their
// Influencer; cmd/credo loads it from Config.PRM.
func WithPRM(p credit.Influencer) Option { return func(t *Trainer) { t.prm = p } }

// New checks the configuration against everything it names (task, method,
// policy, judges, PRM) and prepares the run directory, before any
// training. With resume, it continues from the run's latest checkpoint.
func New(ctx context.Context, c Config, resume bool, log io.Writer, opts ...Option) (*Trainer, error) {
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("invalid configuration: %w", err)
	}
	t := &Trainer{c: c, log: log}
	for _, o := range opts {
		o(t)
	}
	var err error
	if t.task, err = NewTask(c.Task, c.TaskSeed, c.Difficulty); err != nil {
		return nil, err
	}
	if t.method, err = credit.New(c.Method, c.Credit); err != nil {
		return nil, err
	}
	t.needs = credit.RequirementsOf(t.method)
	t.rewards = t.task.Rewards()
	for _, spec := range c.Judges {
		v, err := reward.New("judge", spec)
		if err != nil {
			return nil, fmt.Errorf("judge %q: %w", spec, err)
		}
		t.rewards = append(t.rewards, v)
	}
	if err := t.checkNeeds(ctx); err != nil {
		return nil, err
	}
	t.weights = make([]float64, len(t.rewards))
	for k, v := range t.rewards {
		t.weights[k] = 1
		if w, ok := v.(interface{ Weight() float64 }); ok {
			t.weights[k] = w.Weight()
		}
		if w, ok := c.Weights[v.Name()]; ok {
			t.weights[k] = w
		}
	}
	for name := range c.Weights {
		if !hasReward(t.rewards, name) {
			return nil, fmt.Errorf("reward_weights names %q, which is not a reward of task %s (rewards: %s)", name, c.Task, rewardNames(t.rewards))
		}
	}
	t.loss = Loss{ClipLow: c.ClipLow, ClipHigh: c.ClipHigh, KLBeta: c.KLBeta, Agg: c.LossAgg, MaxTokens: c.MaxTokens}
	if err := t.openRun(resume); err != nil {
		return nil, err
	}
	if c.KLBeta > 0 {
		ref, err := policy.Load(c.Init)
		if err != nil {
			return nil, fmt.Errorf("reference policy: %w", err)
		}
		t.ref = ref.Model
	}
	return t, nil
}

func hasReward(vs []reward.Verifier, name string) bool {
	for _, v := range vs {
		if v.Name() == name {
			return true
		}
	}
	return false
}

func rewardNames(vs []reward.Verifier) string {
	names := make([]string, len(vs))
	for i, v := range vs {
		names[i] = v.Name()
	}
	return strings.Join(names, ", ")
}

// checkNeeds fails early, with what to change, when the method needs
// something this run cannot give it.
func (t *Trainer) checkNeeds(ctx context.Context) error {
	if t.needs.PRM && t.prm == nil {
		return fmt.Errorf("method %s needs a process reward model: pass --prm DIR (train one with `credo prm train`)", t.c.Method)
	}
	if t.needs.InfoBlocks {
		// Ask every verifier about an empty answer to the first prompt: a
		// reward's information block does not depend on how good the answer is.
		p := t.task.Prompt(task.Train, 0)
		verdicts, _ := verifyAll(ctx, t.rewards, []reward.Prompt{p}, []string{""}, t.c.VerifyWorkers, time.Duration(t.c.VerifyTimeout))
		for _, v := range verdicts {
			if v[0].Info != "" {
				return nil
			}
		}
		return fmt.Errorf("method %s replays prompts without each reward's information block, but task %s's rewards (%s) give none: use span or gdpo", t.c.Method, t.c.Task, rewardNames(t.rewards))
	}
	return nil
}

// openRun prepares the run directory: a fresh one, or a resumed one whose
// logs are cut back to its latest checkpoint.
func (t *Trainer) openRun(resume bool) error {
	dir := t.c.Out
	ckpt := ""
	if resume {
		var err error
		if ckpt, err = latestCheckpoint(dir); err != nil {
			return err
		}
	} else if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return fmt.Errorf("run directory %s is not empty: pass --resume to continue it, or choose another --out", dir)
	}
	if err := os.MkdirAll(filepath.Join(dir, "checkpoints"), 0o755); err != nil {
		return fmt.Errorf("run directory: %w", err)
	}
	if ckpt != "" {
		if err := t.loadCheckpoint(ckpt); err != nil {
			return err
		}
		fmt.Fprintf(t.log, "resuming %s from %s (step %d)\n", dir, ckpt, t.step)
	} else {
		p, err := policy.Load(t.c.Init)
		if err != nil {
			return err
		}
		t.policy = p
		if t.opt, err = model.NewTrainer(p.Model, t.c.Optimizer, t.loss); err != nil {
			return err
		}
	}
	var err error
	if t.metrics, err = run.OpenMetrics(filepath.Join(dir, run.MetricsFile), t.step); err != nil {
		return err
	}
	if t.samples, err = run.OpenSamples(filepath.Join(dir, run.SamplesFile), t.step); err != nil {
		return err
	}
	if err := errors.Join(t.metrics.Save(), t.samples.Save()); err != nil {
		return err
	}
	return run.WriteJSON(filepath.Join(dir, "config.json"), t.c)
}

// Step is the number of completed training steps.
func (t *Trainer) Step() int { return t.step }

// Policy is the policy being trained.
func (t *Trainer) Policy() *policy.Policy { return t.policy }

// Done reports whether the run has finished all its steps.
func (t *Trainer) Done() bool { return t.step >= t.c.Steps }

// Run trains until Config.Steps, evaluating and checkpointing on the way.
// When ctx is cancelled (SIGINT, SIGTERM) it writes a checkpoint of the
// last completed step and returns ctx's error.
func (t *Trainer) Run(ctx context.Context) error {
	bar := progress.New(t.log, "train", t.step, t.c.Steps)
	defer bar.Done()
	for t.step < t.c.Steps {
		rec, err := t.trainStep(ctx, t.step)
		if err != nil {
			if ctx.Err() != nil {
				return t.interrupted(ctx)
			}
			return fmt.Errorf("step %d: %w", t.step, err)
		}
		t.step++
		if t.c.EvalEvery > 0 && t.step%t.c.EvalEvery == 0 || t.step == t.c.Steps {
			if err := t.evaluate(ctx, rec); err != nil {
				if ctx.Err() != nil {
					return t.interruptedWith(ctx, rec)
				}
				return err
			}
		}
		if err := t.metrics.Append(rec.metrics); err != nil {
			return err
		}
		if err := t.samples.Append(rec.samples...); err != nil {
			return err
		}
		if t.c.CheckpointEvery > 0 && t.step%t.c.CheckpointEvery == 0 || t.step == t.c.Steps {
			if err := t.saveCheckpoint(); err != nil {
				return err
			}
		}
		bar.Update(t.step, rec.summary)
		if ctx.Err() != nil {
			return t.interrupted(ctx)
		}
	}
	return nil
}

func (t *Trainer) interruptedWith(ctx context.Context, rec stepRecord) error {
	if err := errors.Join(t.metrics.Append(rec.metrics), t.samples.Append(rec.samples...)); err != nil {
		return err
	}
	return t.interrupted(ctx)
}

// interrupted checkpoints the last completed step so --resume continues
// exactly where the run stopped.
func (t *Trainer) interrupted(ctx context.Context) error {
	if err := t.saveCheckpoint(); err != nil {
		return fmt.Errorf("interrupted, and the checkpoint failed: %w", err)
	}
	fmt.Fprintf(t.log, "\ninterrupted: checkpoint of step %d written to %s; continue with --resume\n", t.step, t.c.Out)
	return ctx.Err()
}

// evaluate adds the test-split rewards to a step's metrics.
func (t *Trainer) evaluate(ctx context.Context, rec stepRecord) error {
	if t.c.EvalPrompts == 0 {
		return nil
	}
	res, err := Evaluate(ctx, t.policy, t.task, t.rewards, EvalConfig{
		Prompts: t.c.EvalPrompts, Samples: t.c.EvalSamples, MaxTokens: t.c.MaxTokens,
		Workers: t.c.VerifyWorkers, Timeout: time.Duration(t.c.VerifyTimeout), Seed: t.c.Seed,
	})
	if err != nil {
		return fmt.Errorf("evaluate at step %d: %w", t.step, err)
	}
	for k, v := range res.Greedy {
		rec.metrics["eval/greedy/"+k] = v
	}
	for k, v := range res.Sampled {
		rec.metrics["eval/sampled/"+k] = v
	}
	return nil
}
