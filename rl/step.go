package rl

import (
	"context"
	"fmt"
	"maps"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/internal/stats"
	"github.com/credo-rl/credo/optim"
	"github.com/credo-rl/credo/replay"
	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/rollout"
	"github.com/credo-rl/credo/run"
	"github.com/credo-rl/credo/sample"
	"github.com/credo-rl/credo/task"
)

// stepRecord is what one step leaves behind.
type stepRecord struct {
	metrics run.Metrics
	samples []run.Sample
	summary string // for the progress bar
	applied int    // updates applied (not skipped)
	// verifyFailed and verifyTotal count each reward's failed and total
	// verdicts; lastError is each reward's last failure.
	verifyFailed, verifyTotal []int
	lastError                 []error
}

// trainStep runs step s in its phases: rollout (sample the groups and
// verify them), credit (token advantages), update (the policy's
// optimizer steps), log (the step's metrics and samples).
func (t *Trainer) trainStep(ctx context.Context, s int) (stepRecord, error) {
	start := time.Now()
	all, kept, sm, err := t.sampleStep(ctx, s)
	if err != nil {
		return stepRecord{}, err
	}
	t.logFailures(s, all.Failures)
	t2 := time.Now()
	adv, cm, err := t.assignCredit(ctx, s, kept)
	if err != nil {
		return stepRecord{}, err
	}
	tCredit := time.Since(t2)
	t3 := time.Now()
	up, err := t.update(ctx, s, kept, adv)
	if err != nil {
		return stepRecord{}, err
	}
	times := stepTimes{credit: tCredit, update: time.Since(t3), total: time.Since(start)}
	failed, lastErr := rollout.FailureCounts(all.Failures, len(t.rewards))
	m, err := t.stepMetrics(ctx, s, all, up, cm, sm, adv, failed, times)
	if err != nil {
		return stepRecord{}, err
	}
	asked := make([]int, len(t.rewards))
	for k := range t.rewards {
		asked[k] = len(all.Verdicts[k])
	}
	samples := kept.Samples(s+1, t.c.SamplesPerStep, t.rewards, adv)
	return stepRecord{metrics: m, samples: samples, summary: t.summary(m, failed),
		applied: up.applied, verifyFailed: failed, verifyTotal: asked, lastError: lastErr}, nil
}

// logFailures prints the first failed verdicts of step s (scored 0).
func (t *Trainer) logFailures(s int, fs []rollout.VerifyFailure) {
	for j, e := range fs {
		if j == 3 {
			fmt.Fprintf(t.log, "\nstep %d: %d more verifier errors (see verify/errors/* in metrics.jsonl)\n", s+1, len(fs)-j)
			break
		}
		fmt.Fprintf(t.log, "\nstep %d: verifier error (scored 0): %v\n", s+1, e)
	}
}

// assignCredit asks the credit method for the kept groups' token
// advantages.
func (t *Trainer) assignCredit(ctx context.Context, s int, kept rollout.Rollouts) (credit.Advantages, credit.Metrics, error) {
	adv, cm, err := t.method.Advantages(ctx, t.batch(s, kept))
	if err != nil {
		return adv, nil, fmt.Errorf("credit (%s): %w", t.c.Method, err)
	}
	if t.advantageHook != nil {
		t.advantageHook(adv.Tokens)
	}
	return adv, cm, nil
}

// updateStats is what a step's updates report.
type updateStats struct {
	lr               float64
	applied, skipped int
	positions        int // Σ tokens of the update's sequences (prompt and response)
	lossSum, normSum float64
	last             map[string]float64 // the last applied update's metrics
}

// update takes the step's c.Updates optimizer steps on the kept groups
// against their old log-probs; an update with a non-finite loss, gradient,
// weight or moment is skipped and said.
func (t *Trainer) update(ctx context.Context, s int, kept rollout.Rollouts, adv credit.Advantages) (updateStats, error) {
	seqs, extra, err := t.trainingBatch(ctx, kept.IDs, kept.Responses, adv.Tokens)
	if err != nil {
		return updateStats{}, err
	}
	sched := t.c.Schedule
	sched.Steps = t.c.Steps
	u := updateStats{lr: sched.At(s)}
	for _, q := range seqs {
		u.positions += len(q)
	}
	for range t.c.Updates {
		st, err := t.opt.Step(ctx, seqs, extra, u.lr)
		if err != nil {
			return u, fmt.Errorf("update: %w", err)
		}
		if st.Skipped {
			u.skipped++
			fmt.Fprintf(t.log, "\nstep %d: non-finite loss, gradient, weight or moment (loss %v, norm %v): update skipped, weights unchanged\n", s+1, st.Loss, st.GradNorm)
			continue
		}
		u.applied++
		u.lossSum, u.normSum, u.last = u.lossSum+st.Loss, u.normSum+st.GradNorm, st.Metrics
	}
	return u, nil
}

// stepTimes are the seconds a step's phases took (the rollout's are in
// its Rollouts).
type stepTimes struct{ credit, update, total time.Duration }

// stepMetrics is step s's line of metrics.jsonl: its timings, the
// update's loss and metrics, the credit method's and the sampler's
// metrics, every reward's mean, spread and failures, the response length,
// the verifiers' own metrics and, every c.BlockEvery steps of a method
// that replays, the block diagnostic.
func (t *Trainer) stepMetrics(ctx context.Context, s int, all rollout.Rollouts, up updateStats, cm credit.Metrics, sm run.Metrics, adv credit.Advantages, failed []int, times stepTimes) (run.Metrics, error) {
	c := t.c
	// step is the number of steps completed with this one, as checkpoint
	// names and the progress bar count.
	m := run.Metrics{
		run.KeyStep: float64(s + 1), "lr": up.lr, "update/skipped": float64(up.skipped), "verify/errors": float64(len(all.Failures)),
		"time/sample": all.Sampling.Seconds(), "time/verify": all.Verifying.Seconds(), "time/credit": times.credit.Seconds(),
		"time/update": times.update.Seconds(), run.KeyTimeStep: times.total.Seconds(),
		run.KeyCreditOverhead: times.credit.Seconds() / times.total.Seconds(),
	}
	// The update's size: its positions (prompt and response tokens) and
	// 6·parameters·positions GFLOP (forward and backward; attention not
	// counted), from which scripts/phases.sh states its MFU.
	m["update/positions"] = float64(up.positions)
	m["update/gflop"] = 6 * float64(t.policy.Model.Config.NumParams()) * float64(up.positions) / 1e9
	if up.applied > 0 {
		m["loss/total"], m["grad_norm"] = up.lossSum/float64(up.applied), up.normSum/float64(up.applied)
		maps.Copy(m, up.last)
	}
	maps.Copy(m, cm)
	m[run.KeyAbsAdvantage] = absMean(adv.Tokens)
	maps.Copy(m, sm)
	for k, v := range t.rewards {
		m["verify/errors/"+v.Name()] = float64(failed[k])
	}
	t.rewardMetrics(m, all.Verdicts, all.Groups())
	lengths := make([]float64, len(all.Responses))
	for i, r := range all.Responses {
		lengths[i] = float64(len(r.Tokens))
	}
	m[run.KeyResponseLength], _ = stats.MeanStd(lengths)
	for _, v := range t.rewards {
		if jm, ok := v.(reward.Reporter); ok {
			maps.Copy(m, jm.Metrics())
		}
	}
	if _, ok := t.task.(task.Referencer); ok && t.needs.Replay && c.BlockEvery > 0 && s%c.BlockEvery == 0 {
		br, err := replay.BlockDiagnostic(ctx, t.policy, t.task, max(c.EvalPrompts, 2))
		if err != nil {
			return nil, err
		}
		maps.Copy(m, br.Metrics())
	}
	return m, nil
}

// batch assembles what the credit method sees.
func (t *Trainer) batch(s int, kept rollout.Rollouts) *credit.Batch {
	b := kept.CreditBatch(t.rewards, t.weights, s, rollout.StepSeed(t.c.Seed, s))
	if t.needs.Replay {
		b.Replay = replay.New(t.policy.Model, t.policy.Tok, replay.Chunk)
	}
	if t.needs.PRM {
		b.PRM = t.prm
	}
	return b
}

// trainingBatch lays each response after its prompt and aligns the loss
// inputs with the targets: mask, advantage, old and reference log-probs.
func (t *Trainer) trainingBatch(ctx context.Context, prompts [][]int32, res []sample.Response, adv [][]float64) ([][]int32, optim.TokenInputs, error) {
	N := len(res)
	seqs := make([][]int32, N)
	mask, A, old := make([][]float32, N), make([][]float32, N), make([][]float32, N)
	for i, r := range res {
		p := prompts[r.Prompt]
		seqs[i] = append(append([]int32(nil), p...), r.Tokens...)
		n := len(seqs[i]) - 1
		mask[i], A[i], old[i] = make([]float32, n), make([]float32, n), make([]float32, n)
		if len(adv[i]) != len(r.Tokens) {
			return nil, optim.TokenInputs{}, fmt.Errorf("credit gave %d advantages for response %d of %d tokens", len(adv[i]), i, len(r.Tokens))
		}
		for j := range r.Tokens {
			k := len(p) - 1 + j // target k predicts response token j
			mask[i][k], A[i][k], old[i][k] = 1, float32(adv[i][j]), r.LogProbs[j]
		}
	}
	ref := old // without a KL term the reference input is unused; k3 is then KL to the sampler
	if t.ref != nil {
		lp, err := t.ref.LogProbs(ctx, seqs)
		if err != nil {
			return nil, optim.TokenInputs{}, fmt.Errorf("reference log-probs: %w", err)
		}
		ref = make([][]float32, N)
		for i := range lp {
			ref[i] = make([]float32, len(lp[i]))
			for k := range lp[i] {
				if mask[i][k] == 1 {
					ref[i][k] = lp[i][k]
				}
			}
		}
	}
	return seqs, optim.TokenInputs{Mask: mask, Advantage: A, OldLogP: old, RefLogP: ref}, nil
}

// rewardMetrics adds each reward's mean and std over applicable verdicts
// and the share of the groups it applies to in which it has no variance,
// as credit decides it (credit.ZeroVariance); groups[i] is response i's.
func (t *Trainer) rewardMetrics(m run.Metrics, verdicts [][]reward.Verdict, groups []int) {
	total := 0.0
	for k, v := range t.rewards {
		var xs []float64
		for _, vd := range verdicts[k] {
			if !vd.Skip {
				xs = append(xs, vd.Score)
			}
		}
		if len(xs) == 0 {
			continue
		}
		mean, std := stats.MeanStd(xs)
		name := v.Name()
		m[run.RewardKey(name, "mean")], m[run.RewardKey(name, "std")] = mean, std
		m[run.RewardKey(name, "zero_var")], _ = credit.ZeroVariance(verdicts[k], groups)
		total += t.weights[k] * mean
	}
	m[run.RewardKey(run.TotalReward, "mean")] = total
}

// summary is the progress bar's text: the rewards' means, and how many
// of a reward's verdicts failed this step when any did (a failed verdict
// scores 0, which would otherwise look like a real zero).
func (t *Trainer) summary(m run.Metrics, failed []int) string {
	var parts []string
	idx := make([]int, len(t.rewards))
	for k := range idx {
		idx[k] = k
	}
	sort.Slice(idx, func(a, b int) bool { return t.rewards[idx[a]].Name() < t.rewards[idx[b]].Name() })
	for _, k := range idx {
		n := t.rewards[k].Name()
		if x, ok := m[run.RewardKey(n, "mean")]; ok {
			part := fmt.Sprintf("%s %.2f", n, x)
			if failed[k] > 0 {
				part += fmt.Sprintf(" (%d failed)", failed[k])
			}
			parts = append(parts, part)
		}
	}
	return strings.Join(parts, " ")
}

// absMean is the mean |A| over every response token of the batch: the step
// size the update was taken at (0 for no tokens).
func absMean(rows [][]float64) float64 {
	sum, n := 0.0, 0
	for _, row := range rows {
		for _, a := range row {
			sum += math.Abs(a)
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}
