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

	"github.com/credo-rl/credo/internal/settings"
	"github.com/credo-rl/credo/model"
	"github.com/credo-rl/credo/rollout"

	"github.com/credo-rl/credo/ckpt"
	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/optim"
	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/reward/remote"
	"github.com/credo-rl/credo/run"
	"github.com/credo-rl/credo/task"
	"github.com/credo-rl/credo/task/records"
)

// logProber is what the KL term needs of the frozen reference policy: the
// log-probability of every target token, logp[i][t] = log π(seq[t+1] | seq[≤t]).
type logProber interface {
	LogProbs(ctx context.Context, seqs [][]int32) ([][]float32, error)
}

var _ logProber = (*model.Model)(nil)

// Trainer runs `credo train`: one Trainer is one run directory.
type Trainer struct {
	c       Config
	policy  *policy.Policy
	ref     logProber // the frozen initial policy, for the KL term; nil when KLBeta is 0
	task    task.Task
	rewards []reward.Verifier
	weights []float64
	method  credit.Method
	needs   credit.Requirements
	prm     credit.Influencer
	opt     *optim.Updater
	loss    Loss
	step    int // completed steps
	metrics *run.Log[run.Metrics]
	samples *run.Log[run.Sample]
	evals   *run.Log[run.EvalRecord]
	// lastEval is the newest evaluation's greedy mean of each reward.
	lastEval map[string]float64
	log      io.Writer
	owner    ckpt.Owner // the run directory's: one process trains it at a time

	// acceptNoChecksums lets a resume use a checkpoint whose checksums.json
	// is gone (WithMissingChecksums); accepted says what it accepted.
	acceptNoChecksums bool
	accepted          string

	// verifyLog holds each recent step's failed and total verdicts per
	// reward, for MaxVerifyErrors.
	verifyLog [][2][]int
	// verifyErrors counts each reward's failed verdicts over the whole run.
	verifyErrors []int

	// advantageHook lets tests corrupt advantages (a non-finite value must
	// skip the update).
	advantageHook func([][]float64)

	// progress reports each finished step to a caller's bar (a comparison
	// draws one bar over all its runs); nil draws the run's own.
	progress func(step int, summary string)
}

// MaxSkippedSteps is how many steps in a row may apply no update before
// the run stops (optim.MaxSkippedSteps).
const MaxSkippedSteps = optim.MaxSkippedSteps

// verifyWindow is the number of recent steps over which each reward's
// share of failed verdicts is held against Config.MaxVerifyErrors.
const verifyWindow = 5

// Option changes how New builds a Trainer.
type Option func(*Trainer)

// WithPRM gives methods that need a process reward model (p2t) their
// Influencer; cmd/credo loads it from Config.PRM.
func WithPRM(p credit.Influencer) Option { return func(t *Trainer) { t.prm = p } }

// WithProgress reports each finished step (its number and the progress
// bar's summary of it) to f instead of drawing the run's own bar.
func WithProgress(f func(step int, summary string)) Option {
	return func(t *Trainer) { t.progress = f }
}

// New checks the configuration against everything it names (task, method,
// policy, judges and their servers, PRM) before it touches the disk, then
// prepares the run directory. A failed start leaves no folder behind.
//
// With resume, the run in c.Out continues from its latest checkpoint with
// the configuration it was started with: c must equal the saved one except
// in the settings ResumeMayChange lists, and changes to those are recorded
// in resumes.json. Resuming a folder that holds no run is an error.
// Configuration problems are *settings.Error.
func New(ctx context.Context, c Config, resume bool, log io.Writer, opts ...Option) (_ *Trainer, err error) {
	if err := c.Validate(); err != nil {
		return nil, &settings.Error{Err: err}
	}
	t := &Trainer{c: c, log: log}
	defer func() {
		if err != nil {
			t.owner.Release()
		}
	}()
	for _, o := range opts {
		o(t)
	}
	changes, err := t.claimFolder(resume)
	if err != nil {
		return nil, err
	}
	if err := t.setUp(ctx); err != nil {
		return nil, err
	}
	defer func() {
		if cl, ok := t.task.(io.Closer); ok && err != nil {
			cl.Close() // a task may hold files (sql: its database)
		}
	}()
	last, err := t.startWeights(resume)
	if err != nil {
		return nil, err
	}
	// Everything is checked: only now does the run directory change.
	if resume {
		err = t.prepareResume(last, changes)
	} else {
		err = t.createRun()
	}
	if err != nil {
		return nil, err
	}
	if last != "" {
		fmt.Fprintf(t.log, "resuming %s from %s (step %d)\n", t.c.Out, last, t.step)
	} else if resume {
		ckpt.NoteRestart(t.log, t.c.Out, t.c.CheckpointEvery, t.c.Init)
	}
	return t, t.openLogs()
}

// claimFolder checks the run directory: a resume takes its lock and holds
// the configuration against the saved one (the changes it may make, and
// t.c with paths re-rooted); a new run needs an empty or absent folder.
func (t *Trainer) claimFolder(resume bool) ([]Change, error) {
	c := t.c
	if !resume {
		if st, err := os.Stat(c.Out); err == nil && !st.IsDir() {
			return nil, &settings.Error{Err: settings.Problems{{Key: "out", Msg: c.Out + " is a file, not a run directory"}}}
		} else if entries, _ := os.ReadDir(c.Out); len(entries) > 0 {
			return nil, configErr("run directory %s is not empty: pass --resume to continue it, or choose another --out", c.Out)
		}
		return nil, nil
	}
	saved, err := LoadRunConfig(c.Out)
	if err != nil {
		return nil, err
	}
	if err = t.owner.Take(c.Out); err != nil {
		return nil, err
	}
	c, changes, refused := resumeCompare(saved, c)
	if len(refused) > 0 {
		return nil, &settings.Error{Err: &ResumeConflict{Problems: refused, MayChange: ResumeMayChange()}}
	}
	t.c = c
	return changes, nil
}

// setUp builds everything the configuration names: the task, the credit
// method (and checks it has what it needs), the rewards with their
// weights, and the loss.
func (t *Trainer) setUp(ctx context.Context) (err error) {
	c := t.c
	if t.task, err = records.Build(ctx, c.Task, c.TaskSeed, c.Difficulty, c.Source, t.log); err != nil {
		return &settings.Error{Err: err}
	}
	defer func() {
		if cl, ok := t.task.(io.Closer); ok && err != nil {
			cl.Close() // a task may hold files (sql: its database)
		}
	}()
	if t.method, err = credit.New(c.Method, c.Credit.Config); err != nil {
		return &settings.Error{Err: err}
	}
	t.needs = credit.RequirementsOf(t.method)
	if t.needs.PRM && t.prm == nil {
		return configErr("method %s needs a process reward model: pass --prm DIR (train one with `credo prm train`)", c.Method)
	}
	extra, err := remote.Build(c.Verifiers, t.task)
	if err != nil {
		return &settings.Error{Err: err}
	}
	if t.rewards, err = task.Rewards(ctx, t.task, c.Judges, extra...); err != nil {
		return err
	}
	if err := t.checkInfoBlocks(ctx); err != nil {
		return err
	}
	if err := t.setWeights(); err != nil {
		return err
	}
	t.verifyErrors = make([]int, len(t.rewards))
	t.loss = Loss{ClipLow: c.ClipLow, ClipHigh: c.ClipHigh, KLBeta: c.KLBeta, Agg: c.LossAgg, MaxTokens: c.MaxTokens}
	return nil
}

// setWeights gives each reward its c[k] (reward.Weights): 1, a judge's own weight, or the
// configuration's; a weight for no reward of the run is an error.
func (t *Trainer) setWeights() error {
	var unknown []string
	if t.weights, unknown = reward.Weights(t.rewards, t.c.Weights); len(unknown) > 0 {
		return &settings.Error{Err: settings.Problems{{Key: "reward_weights." + unknown[0], Msg: fmt.Sprintf("%q is not a reward of task %s (rewards: %s)", unknown[0], t.c.Task, rewardNames(t.rewards))}}}
	}
	return nil
}

// startWeights loads the policy and optimizer: from the latest checkpoint
// of a resumed run (whose name it returns; "" when it has none), else
// from Init; and the frozen reference policy of the KL term.
func (t *Trainer) startWeights(resume bool) (last string, err error) {
	if resume {
		if last, err = latestCheckpoint(t.c.Out); err != nil {
			return "", err
		}
	}
	if last != "" {
		if err := t.loadCheckpoint(last); err != nil {
			return "", err
		}
		if err := t.checkRunConfig(last); err != nil {
			return "", err
		}
	} else if err := t.startPolicy(); err != nil {
		return "", err
	}
	if t.c.KLBeta > 0 {
		ref, err := policy.Load(t.c.Init)
		if err != nil {
			return "", &settings.Error{Err: settings.Problems{{Key: "init", Msg: "the reference policy of the KL term: " + err.Error()}}}
		}
		t.ref = ref.Model
	}
	return last, nil
}

// startPolicy loads the initial policy and a fresh optimizer.
func (t *Trainer) startPolicy() error {
	p, err := policy.Load(t.c.Init)
	if err != nil {
		return &settings.Error{Err: settings.Problems{{Key: "init", Msg: err.Error()}}}
	}
	t.policy = p
	t.opt, err = optim.NewUpdater(p.Model, t.c.Optimizer, t.loss)
	if err != nil {
		return &settings.Error{Err: err}
	}
	if err := t.opt.SetMemory(t.c.Memory); err != nil {
		return &settings.Error{Err: err}
	}
	return nil
}

func rewardNames(vs []reward.Verifier) string { return strings.Join(reward.NamesOf(vs), ", ") }

// checkInfoBlocks fails early, with what to change, when the method
// replays prompts without each reward's information block but no reward
// gives one.
func (t *Trainer) checkInfoBlocks(ctx context.Context) error {
	if !t.needs.InfoBlocks {
		return nil
	}
	// Ask every verifier about an empty answer to the first prompt: a
	// reward's information block does not depend on how good the answer is.
	p := t.task.Prompt(task.Train, 0)
	verdicts, _ := rollout.VerifyAll(ctx, t.rewards, []reward.Prompt{p}, []string{""}, t.verify())
	for _, v := range verdicts {
		if v[0].Info != "" {
			return nil
		}
	}
	return configErr("method %s replays prompts without each reward's information block, but task %s's rewards (%s) give none: use span or gdpo", t.c.Method, t.c.Task, rewardNames(t.rewards))
}

// createRun makes a fresh run directory whole (ckpt.Owner.Create):
// config.json, empty logs and checkpoints/, or no directory at all.
func (t *Trainer) createRun() error {
	t.c = absolutePaths(t.c)
	return t.owner.Create(t.c.Out, t.log, func(tmp string) error {
		return errors.Join(
			run.WriteJSON(filepath.Join(tmp, run.ConfigFile), t.c),
			run.WriteFile(filepath.Join(tmp, run.MetricsFile), nil),
			run.WriteFile(filepath.Join(tmp, run.SamplesFile), nil),
		)
	})
}

// prepareResume cleans a resumed run's directory of what a killed
// checkpoint write left behind, and records any settings that changed.
func (t *Trainer) prepareResume(ck string, changes []Change) error {
	return ckpt.Resumed(t.c.Out, ResumeRecord{Step: t.step, Checkpoint: filepath.Base(ck), Changes: changes, Accepted: t.accepted}, t.c, t.log)
}

// openLogs opens metrics.jsonl, samples.jsonl and evals.jsonl, cut back to the steps
// the current weights have seen (a resumed run drops the lines past its
// checkpoint).
func (t *Trainer) openLogs() error {
	var err error
	if t.metrics, err = run.OpenMetrics(filepath.Join(t.c.Out, run.MetricsFile), t.step); err != nil {
		return err
	}
	if t.samples, err = run.OpenSamples(filepath.Join(t.c.Out, run.SamplesFile), t.step); err != nil {
		return err
	}
	if t.evals, err = run.OpenEvals(filepath.Join(t.c.Out, run.EvalsFile), t.step); err != nil {
		return err
	}
	return errors.Join(t.metrics.Save(), t.samples.Save(), t.evals.Save())
}

// Step is the number of completed training steps.
func (t *Trainer) Step() int { return t.step }

// Policy is the policy being trained.
func (t *Trainer) Policy() *policy.Policy { return t.policy }

// Done reports whether the run has finished all its steps.
func (t *Trainer) Done() bool { return t.step >= t.c.Steps }

// Run trains until Config.Steps, evaluating and checkpointing on the way.
// When ctx is cancelled (SIGINT, SIGTERM) it writes a checkpoint of the
// last completed step and returns an *InterruptedError wrapping ctx's
// error. It stops with an error when MaxSkippedSteps steps in a row apply
// no update, and when a reward's verdicts fail more often than
// Config.MaxVerifyErrors; the last checkpoint then holds the last good
// weights.
func (t *Trainer) Run(ctx context.Context) error {
	if err := t.owner.Take(t.c.Out); err != nil {
		return err
	}
	defer t.owner.Release()
	var last stepRecord
	loop := optim.Loop{
		First: t.step, Steps: t.c.Steps,
		CheckpointEvery: t.c.CheckpointEvery, CheckpointLast: true,
		Save:      func(int) error { return t.saveCheckpoint() },
		Stuck:     t.stuck,
		Check:     func(int) error { return t.health(last) },
		Interrupt: func(ctx context.Context, _ int) error { return t.interrupted(ctx) },
		Report:    t.progress, Name: "train", Log: t.log,
	}
	return loop.Run(ctx, func(ctx context.Context, _ int) (optim.Outcome, error) {
		rec, err := t.trainStep(ctx, t.step)
		if err != nil {
			if ctx.Err() != nil {
				return optim.Outcome{}, err
			}
			return optim.Outcome{}, fmt.Errorf("step %d: %w", t.step+1, err)
		}
		t.step++
		if t.c.EvalEvery > 0 && t.step%t.c.EvalEvery == 0 || t.step == t.c.Steps {
			if err := t.evaluate(ctx, rec); err != nil {
				if ctx.Err() != nil {
					err = errors.Join(t.metrics.Append(rec.metrics), t.samples.Append(rec.samples...), err)
				}
				return optim.Outcome{}, err
			}
		}
		if err := errors.Join(t.metrics.Append(rec.metrics), t.samples.Append(rec.samples...)); err != nil {
			return optim.Outcome{}, err
		}
		last = rec
		return optim.Outcome{Skipped: rec.applied == 0, Summary: rec.summary}, nil
	})
}

// stuck is the error that stops a run whose updates were skipped step
// after step.
func (t *Trainer) stuck(step, inARow int) error {
	return fmt.Errorf("step %d: no update could be applied in %d steps in a row (a non-finite loss, gradient, weight or moment each time; the weights were left as they were): "+
		"the learning rate (lr %v) or weight decay (%v) is probably far too large%s",
		step, inARow, t.c.Peak, t.c.Optimizer.WeightDecay, t.lastCheckpointNote())
}

// health stops a run whose reward's verdicts keep failing.
func (t *Trainer) health(rec stepRecord) error {
	t.verifyLog = append(t.verifyLog, [2][]int{rec.verifyFailed, rec.verifyTotal})
	if len(t.verifyLog) > verifyWindow {
		t.verifyLog = t.verifyLog[1:]
	}
	for k, v := range t.rewards {
		t.verifyErrors[k] += rec.verifyFailed[k]
		failed, total := 0, 0
		for _, s := range t.verifyLog {
			failed, total = failed+s[0][k], total+s[1][k]
		}
		if total > 0 && float64(failed) > t.c.MaxVerifyErrors*float64(total) {
			return fmt.Errorf("step %d: %d of the last %d verdicts of reward %s failed, more than max_verify_errors (%v) allows (last error: %v)%s",
				t.step, failed, total, v.Name(), t.c.MaxVerifyErrors, rec.lastError[k], t.lastCheckpointNote())
		}
	}
	return nil
}

// lastCheckpointNote says where the last good state is, for errors that
// stop a run.
func (t *Trainer) lastCheckpointNote() string {
	if ck, err := latestCheckpoint(t.c.Out); err == nil && ck != "" {
		return "; the last checkpoint is " + ck
	}
	return ""
}

// VerifyErrors is the number of failed verdicts of each reward so far in
// this process, by reward name (only rewards that failed at least once).
func (t *Trainer) VerifyErrors() map[string]int {
	out := map[string]int{}
	for k, v := range t.rewards {
		if t.verifyErrors[k] > 0 {
			out[v.Name()] = t.verifyErrors[k]
		}
	}
	return out
}

// InterruptedError is a run stopped by its context (SIGINT, SIGTERM) after
// Step completed steps, whose state is in Checkpoint ("" when no step had
// completed: there was nothing to keep). What to run next depends on the
// command, so the trainer does not say it.
type InterruptedError struct {
	Dir        string
	Step       int
	Checkpoint string
	Err        error // the context's error
}

func (e *InterruptedError) Error() string {
	return fmt.Sprintf("interrupted after step %d: checkpoint %s written", e.Step, e.Checkpoint)
}
func (e *InterruptedError) Unwrap() error { return e.Err }

// interrupted checkpoints the last completed step so a resume continues
// exactly where the run stopped.
func (t *Trainer) interrupted(ctx context.Context) error {
	if t.step == 0 { // nothing done: a resume starts from Init
		return &InterruptedError{Dir: t.c.Out, Err: ctx.Err()}
	}
	if err := t.saveCheckpoint(); err != nil {
		return fmt.Errorf("interrupted, and the checkpoint failed: %w", err)
	}
	return &InterruptedError{Dir: t.c.Out, Step: t.step, Checkpoint: ckpt.Dir(t.c.Out, t.step), Err: ctx.Err()}
}

// evaluate adds the test-split rewards to a step's metrics.
func (t *Trainer) evaluate(ctx context.Context, rec stepRecord) error {
	if t.c.EvalPrompts == 0 {
		return nil
	}
	res, err := rollout.Evaluate(ctx, t.policy, t.task, t.rewards, rollout.EvalConfig{
		Prompts: t.c.EvalPrompts, Samples: t.c.EvalSamples, MaxTokens: t.c.MaxTokens,
		Workers: t.c.VerifyWorkers, Timeout: time.Duration(t.c.VerifyTimeout), Seed: t.c.Seed,
	})
	if err != nil {
		return fmt.Errorf("evaluate at step %d: %w", t.step, err)
	}
	for k, n := range res.Errors {
		rec.metrics["eval/errors/"+k] = float64(n)
	}
	if share, name := res.ErrorShare(); share > t.c.MaxVerifyErrors {
		return fmt.Errorf("evaluate at step %d: %d of %d verdicts of reward %s failed, more than max_verify_errors (%v) allows (last error: %s)%s",
			t.step, res.Errors[name], res.Verdicts[name], name, t.c.MaxVerifyErrors, res.LastError[name], t.lastCheckpointNote())
	}
	for k, v := range res.Greedy {
		rec.metrics["eval/greedy/"+k] = v
	}
	t.lastEval = res.Greedy
	if err := t.evals.Append(run.EvalRecord{Step: t.step, Greedy: res.PerPrompt}); err != nil {
		return err
	}
	for k, v := range res.Sampled {
		rec.metrics["eval/sampled/"+k] = v
	}
	return nil
}

// LastEval is the newest evaluation's greedy mean of each reward on the
// first EvalPrompts test prompts (nil before the first).
func (t *Trainer) LastEval() map[string]float64 { return t.lastEval }

// Close releases what the run holds beyond memory (the task's files: the
// sql task's database). The Trainer is not used afterwards.
func (t *Trainer) Close() error {
	err := t.owner.Release()
	if cl, ok := t.task.(io.Closer); ok {
		err = errors.Join(err, cl.Close())
	}
	return err
}
